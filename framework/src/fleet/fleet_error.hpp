// What goes wrong with a fleet host: a malformed host argument, ssh that
// cannot connect or authenticate, a host without this stand. The message
// names the host and what to do.
#pragma once

#include <stdexcept>
#include <string>

namespace stand::fleet {

class FleetError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace stand::fleet
