//===- Grouping.h - One finding per place, worst case first ---------------===//
//
// A template kernel's line is analyzed once per instantiation and block
// shape; what the user reads is the line. Records at the same place (file,
// access, rule, array) are merged into one that carries the worst
// configuration's numbers (severity, then the cost model's predicted cost),
// keeps every configuration with its own numbers (JSON's `configurations`),
// and says in a note which configurations share it, naming the difference
// when it is material:
//
//   note: differs by configuration: 32-way in `t<128>`; 2-way in `t<16>`
//   note: the same in 3 configurations: `t<32>`, `t<64>`, `t<128>`
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_REPORT_GROUPING_H
#define CUDA_ACCESS_LINT_REPORT_GROUPING_H

#include "report/FindingRecord.h"

#include <vector>

namespace cal {

/// Merges the records of one place into one, in the order of each place's
/// first record. Records of a configuration already seen at the place (a
/// compound assignment's load and store) keep the worse.
std::vector<FindingRecord> groupByPlace(std::vector<FindingRecord> Records);

/// The finding's headline number in one configuration ("32-way",
/// "16 sectors per request"), what "material" differences are made of.
std::string headline(const std::string &Rule, const nlohmann::json &Metrics);

/// Most costly first: severity, then predicted cost, then the given order.
std::vector<const FindingRecord *>
rankByCost(const std::vector<FindingRecord> &Records);

} // namespace cal

#endif
