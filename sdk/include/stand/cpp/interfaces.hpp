// stand C++ helpers: interface mixins. A plugin class derives from the ones it
// implements; plugin.hpp builds the C tables with noexcept thunks from them.
// Methods report failure by throwing stand::cpp::Error; JSON outputs are
// returned as boost::json values and serialised into the host's sink.
#pragma once

#include <stand/ext/lifecycle.h>
#include <stand/ext/panel.h>
#include <stand/ext/probe.h>
#include <stand/ext/proxy.h>
#include <stand/cpp/error.hpp>

#include <boost/json.hpp>

#include <cstdint>
#include <string>

namespace stand::cpp {

// Base of every plugin instance class.
class Instance {
public:
    virtual ~Instance() = default;
};

class Lifecycle {
public:
    static constexpr const char* id = STAND_LIFECYCLE_ID;
    virtual ~Lifecycle() = default;
    virtual stand_result install() = 0;
    virtual stand_result start() = 0;
    virtual stand_result stop() = 0;
    virtual stand_result restart() = 0;
    virtual stand_result wipe() = 0;
    virtual boost::json::object readiness() = 0;
    virtual boost::json::object facts() = 0;
};

class Panel {
public:
    static constexpr const char* id = STAND_PANEL_ID;
    virtual ~Panel() = default;
    virtual void bootstrap() = 0;
    virtual boost::json::object create_user(const std::string& name) = 0;
    virtual void delete_user(const std::string& user_id) = 0;
    virtual void admin_call() = 0;
    virtual boost::json::object subscription_request(const std::string& user_id) = 0;
    // ABI 1.3. Not overridden: the call answers STAND_E_UNSUPPORTED naming itself.
    virtual void set_user_enabled(const std::string& user_id, bool enabled);
    virtual void set_user_quota(const std::string& user_id, std::uint64_t quota_bytes);
    virtual boost::json::object user_traffic(const std::string& user_id);
    // ABI 1.4, unsupported unless overridden: {"requests":[...]} (ext/panel.h).
    virtual boost::json::object dashboard_requests();
};

inline void Panel::set_user_enabled(const std::string&, bool) {
    throw Error(STAND_E_UNSUPPORTED, "set_user_enabled: this panel adapter has no enable switch");
}
inline void Panel::set_user_quota(const std::string&, std::uint64_t) {
    throw Error(STAND_E_UNSUPPORTED, "set_user_quota: this panel adapter sets no traffic quota");
}
inline boost::json::object Panel::user_traffic(const std::string&) {
    throw Error(STAND_E_UNSUPPORTED, "user_traffic: this panel adapter reads no traffic counts");
}
inline boost::json::object Panel::dashboard_requests() {
    throw Error(STAND_E_UNSUPPORTED, "dashboard_requests: this panel adapter describes no dashboard requests");
}

class Proxy {
public:
    static constexpr const char* id = STAND_PROXY_ID;
    virtual ~Proxy() = default;
    virtual void configure(const boost::json::object& knobs) = 0;
    virtual boost::json::object endpoint() = 0;
    virtual boost::json::object effective_defaults() = 0;
};

class Probe {
public:
    static constexpr const char* id = STAND_PROBE_ID;
    virtual ~Probe() = default;
    virtual boost::json::array list_jobs() = 0;
    virtual void prepare(const std::string& job_id, const boost::json::object& params) = 0;
    virtual boost::json::object run(const std::string& job_id) = 0;
    virtual stand_result cleanup(const std::string& job_id) = 0;
};

}  // namespace stand::cpp
