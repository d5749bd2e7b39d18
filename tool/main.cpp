//===- main.cpp - cuda-access-lint ----------------------------------------===//
//
// The tool is the library; this only hands it the command line.
//
//===----------------------------------------------------------------------===//

#include "tool/Driver.h"

int main(int argc, const char **argv) { return cal::runDriver(argc, argv); }
