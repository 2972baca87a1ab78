#include "load/exchange.hpp"

namespace stand::load {

Fed feed_response(ResponseParser& parser, const char* data, std::size_t n, std::size_t& consumed) noexcept {
    switch (parser.feed(data, n, consumed)) {
    case ResponseParser::Result::done:
        // Anything after the response answers no request of ours.
        return consumed == n ? Fed::done : Fed::unsolicited;
    case ResponseParser::Result::error:
        return Fed::error;
    case ResponseParser::Result::need_more:
        break;
    }
    return Fed::need_more;
}

EndVerdict end_of_stream(StreamEnd how, ResponseParser& parser, bool reused, bool got_bytes, bool retried) noexcept {
    using Action = EndVerdict::Action;
    if (how == StreamEnd::eof && parser.eof() == ResponseParser::Result::done) return {Action::complete, ErrorKind::other};
    // The server closed the kept-alive connection before our request reached
    // it: send it again once on a new connection (as browsers do).
    if ((how == StreamEnd::eof || how == StreamEnd::reset) && reused && !got_bytes && !retried)
        return {Action::retry, ErrorKind::other};
    switch (how) {
    case StreamEnd::eof: return {Action::fail, ErrorKind::closed};
    case StreamEnd::reset: return {Action::fail, ErrorKind::reset};
    case StreamEnd::timed_out: return {Action::fail, ErrorKind::timeout};
    case StreamEnd::tls: return {Action::fail, ErrorKind::tls};
    case StreamEnd::other: break;
    }
    return {Action::fail, ErrorKind::other};
}

}  // namespace stand::load
