// JUnit XML, the form CI systems (Jenkins, GitLab, GitHub's test reporters)
// show as tests: one <testsuite> of <testcase>s, each passed, failed,
// errored (could not be decided) or skipped. `stand compat --junit`,
// `stand run --junit` (thresholds) and `stand compare --junit` (gates)
// all write it here.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace stand::text {

struct JunitCase {
    enum class Outcome { passed, failed, error, skipped };
    std::string classname;  // the group a CI system lists the case under (a plugin)
    std::string name;
    double seconds = 0;
    Outcome outcome = Outcome::passed;
    std::string message;  // why it failed, errored or was skipped; kept as system-out when it passed
    std::string detail;   // the failure's or error's body
};

struct JunitSuite {
    std::string name;
    std::vector<std::pair<std::string, std::string>> properties;
    std::vector<JunitCase> cases;
};

std::string junit_xml(const JunitSuite& suite);

}  // namespace stand::text
