// Compiles Boost.URL into the framework: Debian packages its headers with
// Boost 1.81 but the library (libboost-url) is a separate, optional package.
// Include <boost/url/src.hpp> in exactly one translation unit of the program.
#include <boost/url/src.hpp>
