// The completion token of the backend's coroutines: errors come back as
// values, because a client hanging up is how most connections end, not an
// exceptional event worth a throw per connection.
#pragma once

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace stand::backend {

inline constexpr auto kAwaitNoThrow = boost::asio::as_tuple(boost::asio::use_awaitable);

}  // namespace stand::backend
