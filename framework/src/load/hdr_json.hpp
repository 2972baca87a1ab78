// A histogram as JSON without loss (schema "stand.hdr/1"): the layout, the
// exact count, min, max, clamped and sum (a decimal string: it is 128 bits
// wide), and the non-empty slots as [index, count] pairs. What one load
// generator writes (`stand load --histogram-out`) and another process reads
// back to merge exactly: merged counts per slot, not averaged percentiles.
#pragma once

#include "load/hdr_histogram.hpp"

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

namespace stand::load {

boost::json::object hdr_to_json(const HdrHistogram& h);
// Throws std::invalid_argument naming the key and what is wrong.
HdrHistogram hdr_from_json(const boost::json::value& v);

}  // namespace stand::load
