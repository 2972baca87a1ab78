#include "scenario/listener_note.hpp"

#include "live/listener_limits.hpp"

#include <cmath>

namespace stand::scenario {

std::optional<detect::Finding> listener_note(const live::ListenerLoad& during, double seconds, const std::string& scope) {
    if (during.refused == 0 && during.paced == 0) return std::nullopt;
    std::string message = "scrapers pressed the --metrics-listen listener during the repetition: " +
                          std::to_string(during.requests) + " requests answered";
    if (seconds > 0 && during.requests > 0)
        message += " in " + std::to_string(std::lround(seconds)) + " s (" +
                   std::to_string(std::lround(static_cast<double>(during.requests) / seconds)) + "/s)";
    if (during.paced > 0)
        message += ", " + std::to_string(during.paced) + " accepts or requests waited for its pace of " +
                   std::to_string(std::lround(live::kOperationsPerSecond)) + "/s";
    if (during.refused > 0)
        message += ", " + std::to_string(during.refused) + " connections refused at its cap of " +
                   std::to_string(during.cap);
    if (during.timed_out > 0)
        message += ", " + std::to_string(during.timed_out) + " closed after " +
                   std::to_string(live::kRequestTimeout.count()) + " s without a whole request";
    message += "; its work shared the machine with the measurement";
    return detect::Finding{"metrics-listener-load", scope, message};
}

}  // namespace stand::scenario
