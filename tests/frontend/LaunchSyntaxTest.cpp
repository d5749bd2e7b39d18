//===- LaunchSyntaxTest.cpp - Spaced launch chevrons, closed up -----------===//

#include "frontend/LaunchSyntax.h"

#include <gtest/gtest.h>

namespace cal {
namespace {

TEST(LaunchSyntax, SpacedChevronsCloseUpKeepingEveryOffset) {
  const char In[] = "k<< <grid, block >> >(a, b);\n"
                    "k2 << < g, b, 0, s >> > (x);\n";
  auto Out = closeUpLaunchChevrons(In);
  ASSERT_TRUE(Out);
  EXPECT_EQ(*Out, "k<<< grid, block >>> (a, b);\n"
                  "k2 <<<  g, b, 0, s >>>  (x);\n");
  EXPECT_EQ(Out->size(), sizeof(In) - 1);
}

TEST(LaunchSyntax, OneSideSpacedClosesUpToo) {
  EXPECT_EQ(closeUpLaunchChevrons("k<<<g, b >> >(x);"), "k<<<g, b >>> (x);");
  EXPECT_EQ(closeUpLaunchChevrons("k<< <g, b>>>(x);"), "k<<< g, b>>>(x);");
}

TEST(LaunchSyntax, OtherCodeIsLeftAlone) {
  // Ordinary launches, nested template closers, shifts, operator<< <T>,
  // comments and strings: nothing to do.
  EXPECT_FALSE(closeUpLaunchChevrons("k<<<g, b>>>(x);"));
  EXPECT_FALSE(closeUpLaunchChevrons("A<B<C<int>> > v; int y = x >> 2;"));
  EXPECT_FALSE(
      closeUpLaunchChevrons("friend std::ostream &operator<< <>(std::ostream &, const X &);"));
  EXPECT_FALSE(closeUpLaunchChevrons("// k<< <g, b >> >(x);\nint a;"));
  EXPECT_FALSE(closeUpLaunchChevrons("/* k<< <g, b >> >(x); */ int a;"));
  EXPECT_FALSE(closeUpLaunchChevrons("const char *s = \"k<< <g, b >> >(x)\";"));
  // `>> >` outside a launch (a template's closers) stays.
  auto Out = closeUpLaunchChevrons("k<< <g, b >> >(x); A<B<C<int>> > (y);");
  ASSERT_TRUE(Out);
  EXPECT_EQ(*Out, "k<<< g, b >>> (x); A<B<C<int>> > (y);");
}

} // namespace
} // namespace cal
