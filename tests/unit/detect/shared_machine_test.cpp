// detect/shared_machine: hosts of a run on hosts that are one machine
// (the same kernel boot id) are named together; other hosts and hosts
// without a boot id are not. fleet.battery_three_hosts sees it fire on the
// test rig's namespaces, which are one machine.
#include "detect/shared_machine.hpp"

#include <boost/json.hpp>

#include <doctest/doctest.h>

using stand::detect::check_shared_machine;

TEST_CASE("shared machine: hosts with one boot id are named together, once per machine") {
    const auto hosts = boost::json::parse(R"([
        {"name": "a", "boot_id": "1111aaaa-0000"}, {"name": "b", "boot_id": "2222bbbb-0000"},
        {"name": "c", "boot_id": "1111aaaa-0000"}, {"name": "d"}, {"name": "e", "boot_id": ""},
        {"name": "f", "boot_id": "1111aaaa-0000"}, "garbage"])").as_array();
    const auto found = check_shared_machine(hosts);
    REQUIRE(found.size() == 1);
    CHECK(found[0].id == "hosts-share-a-machine");
    CHECK(found[0].scope == "hosts a, c and f");
    CHECK(found[0].message.starts_with("a, c and f are one machine (kernel boot id 1111aaaa...) and ran at the same time"));

    CHECK(check_shared_machine(boost::json::parse(R"([{"name": "a", "boot_id": "x"}, {"name": "b", "boot_id": "y"}])").as_array()).empty());
    CHECK(check_shared_machine(boost::json::parse(R"([{"name": "a"}, {"name": "b"}])").as_array()).empty());
    CHECK(check_shared_machine({}).empty());
}
