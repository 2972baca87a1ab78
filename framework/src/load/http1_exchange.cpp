#include "load/http1_exchange.hpp"

namespace stand::load {

void Http1Exchange::end_with_response(std::int64_t now) {
    dispatcher_.stats().record_response(parser_.status(), now - intended_, now - started_, parser_.body_bytes(),
                                        dispatcher_.since_start(now));
    free_at(now);
}

void Http1Exchange::end_with_error(ErrorKind kind, const char* reason, std::int64_t now) {
    dispatcher_.stats().record_error(kind, reason, dispatcher_.second_of(now));
    free_at(now);
}

void Http1Exchange::free_at(std::int64_t now) {
    busy_ = false;
    deadline_ = INT64_MAX;
    dispatcher_.on_idle(*this, now);
}

}  // namespace stand::load
