// Compiles the non-template parts of Boost.Asio (its scheduler, reactor and
// socket operations), Asio's SSL layer and Beast once, here, instead of
// inline in every unit that includes them: the framework is built with
// BOOST_ASIO_SEPARATE_COMPILATION and BOOST_BEAST_SEPARATE_COMPILATION
// (framework/CMakeLists.txt), which takes a fifth of the compile time off
// the units that use them.
#include <boost/asio/impl/src.hpp>
#include <boost/asio/ssl/impl/src.hpp>
#include <boost/beast/src.hpp>
