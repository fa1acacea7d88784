// The formats `openloop audit` reads, named on the command line or recognised from a file's first lines.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "audit/record_reader.h"
#include "core/error.h"

namespace openloop::audit {

enum class Format { auto_detect, hey, ab, jmeter, k6, gatling, vegeta, locust };

/// "auto", "hey", "ab", "jmeter", "k6", "gatling", "vegeta", "locust"; a usage error naming `--format` and
/// the accepted names otherwise.
Result<Format> parse_format(std::string_view text);
std::string_view format_name(Format f);
/// The accepted names, comma-separated (for --help and errors).
std::string_view format_names();

/// Recognises the format from the file's first bytes (at most 4 KiB are read: the first line, and an XML
/// file's first element); a usage error naming the file, what was found and the formats accepted when none
/// matches.
Result<Format> detect_format(const std::string& path);

/// Opens `path` as `format` (auto_detect: detect_format first). A format with two encodings is told apart by
/// the file's first byte: JMeter's XML JTL ('<') or CSV, k6's JSON lines ('{') or CSV. Locust's history holds
/// no records: refused here (audit_locust_history reads it).
Result<std::unique_ptr<RecordReader>> open_reader(const std::string& path, Format format);

}  // namespace openloop::audit
