// metrics-listener-load: scrapers pressed the run's --metrics-listen
// listener during a repetition (more connections than its cap, requests
// faster than its pace): the listener held them off, but its work shared
// the machine with the measurement, so the repetition says so.
#pragma once

#include "detect/finding.hpp"
#include "live/listener_load.hpp"

#include <optional>
#include <string>

namespace stand::scenario {

// `during`: the listener's counts over the repetition, which lasted
// `seconds`. None when no connection was refused and nothing waited.
std::optional<detect::Finding> listener_note(const live::ListenerLoad& during, double seconds, const std::string& scope);

}  // namespace stand::scenario
