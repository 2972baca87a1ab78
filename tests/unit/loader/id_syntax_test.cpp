#include "loader/id_syntax.hpp"

#include <doctest/doctest.h>

#include <string>

using stand::loader::is_valid_interface_id;
using stand::loader::is_valid_plugin_id;

TEST_CASE("plugin ids: lowercase, digits, . _ -, up to 64 characters") {
    CHECK(is_valid_plugin_id("nginx"));
    CHECK(is_valid_plugin_id("3x-ui"));
    CHECK(is_valid_plugin_id("org.example.panel_2"));
    CHECK(is_valid_plugin_id(std::string(64, 'a')));
    CHECK_FALSE(is_valid_plugin_id(std::string(65, 'a')));
    CHECK_FALSE(is_valid_plugin_id(""));
    CHECK_FALSE(is_valid_plugin_id("Nginx"));
    CHECK_FALSE(is_valid_plugin_id("-nginx"));
    CHECK_FALSE(is_valid_plugin_id(".hidden"));
    CHECK_FALSE(is_valid_plugin_id("bad id"));
    CHECK_FALSE(is_valid_plugin_id("a/b"));
}

TEST_CASE("interface ids: dotted lowercase words, slash, positive revision") {
    CHECK(is_valid_interface_id("stand.panel/1"));
    CHECK(is_valid_interface_id("org.example.thing-x/12"));
    CHECK_FALSE(is_valid_interface_id("stand.panel"));
    CHECK_FALSE(is_valid_interface_id("panel/1"));
    CHECK_FALSE(is_valid_interface_id("Stand.Panel/1"));
    CHECK_FALSE(is_valid_interface_id("stand..panel/1"));
    CHECK_FALSE(is_valid_interface_id("stand.panel/0"));
    CHECK_FALSE(is_valid_interface_id("stand.panel/01"));
    CHECK_FALSE(is_valid_interface_id("stand.panel/1a"));
    CHECK_FALSE(is_valid_interface_id("stand.panel/"));
    CHECK_FALSE(is_valid_interface_id(".stand/1"));
}
