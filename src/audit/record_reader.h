// The seam between a results file's format and the audit: a stream of records and what the format can tell.
#pragma once

#include <string>
#include <vector>

#include "audit/line_source.h"
#include "audit/record.h"
#include "core/error.h"
#include "core/time.h"

namespace openloop::audit {

/// The load model a tool applies by construction, when its file cannot show it.
enum class ToolModel { unknown, closed, open };

/// What a format records, which decides what the audit can compute from it.
struct ReaderTraits {
  std::string tool;            ///< "hey", "ab", "JMeter", ...
  bool has_threads = false;    ///< records name their sender (else senders are reconstructed or pooled)
  Nanos start_resolution{0};   ///< the start stamps' resolution (ab: 1 s)
  bool in_start_order = true;  ///< records written in send order (hey writes in completion order)
  ToolModel tool_model = ToolModel::unknown;
};

/// A results file read record by record. Memory stays flat in the file's size.
class RecordReader {
 public:
  virtual ~RecordReader() = default;
  /// The next record into `out`; false at the end. A malformed line is skipped and counted (bad_lines()),
  /// never fatal: only what ends reading is an error.
  virtual Result<bool> next(Record& out) = 0;
  virtual const ReaderTraits& traits() const = 0;
  virtual const BadLines& bad_lines() const = 0;
  /// What the format said besides the records, once read to the end (k6's dropped iterations), one sentence
  /// each.
  virtual std::vector<std::string> notes() const { return {}; }
};

}  // namespace openloop::audit
