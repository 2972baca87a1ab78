// The host's HTTP/1.1 client behind stand.http/1 (see sdk service/http.h for
// the JSON shapes). Boost.Beast over Asio, TLS through OpenSSL.
#pragma once

#include "host/http/exchange_record.hpp"

#include <boost/json.hpp>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace stand::host {

// One finished call, as the run's call log records it.
struct HttpCallRecord {
    std::string label;       // request "label" or "<METHOD> <path>"
    std::string method;
    std::string url;
    int status = 0;          // 0 when no response arrived
    std::string error;       // transport error kind when status == 0
    double elapsed_ms = 0;   // including 429 waits
    int retry_waits = 0;     // 429 answers waited out
    double waited_ms = 0;    // time spent in those waits
};

struct HttpPolicy {
    // Refuse every target whose host is not a loopback address unless true.
    bool allow_remote_targets = false;
    // Polled during waits; when true the call ends with STAND_E_CANCELLED.
    std::function<bool()> cancelled;
    // Keep an ExchangeRecord (names and shapes, no values) of every answer:
    // each 429 waited out and each redirect hop too.
    bool record_exchanges = false;
};

class HttpService {
public:
    explicit HttpService(HttpPolicy policy);
    ~HttpService();
    HttpService(const HttpService&) = delete;
    HttpService& operator=(const HttpService&) = delete;

    // Throws stand::cpp::Error(STAND_E_INVALID_ARGUMENT) for a bad option.
    std::uint64_t open_session(const boost::json::object& options);
    void close_session(std::uint64_t session);

    // Throws stand::cpp::Error with the result code of sdk service/http.h.
    boost::json::object request(std::uint64_t session, const boost::json::object& request);

    std::vector<HttpCallRecord> calls() const;
    // Whether targets off this machine may be contacted (also by other probes of the host).
    bool allows_remote_targets() const noexcept;
    // Empty unless HttpPolicy::record_exchanges.
    std::vector<http::ExchangeRecord> exchanges() const;

private:
    struct Session;
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace stand::host
