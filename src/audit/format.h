// The formats `openloop audit` reads, named on the command line or recognised from a file's first lines.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "audit/record_reader.h"
#include "core/error.h"

namespace openloop::audit {

enum class Format { auto_detect, hey, ab, jmeter, k6, vegeta, locust };

/// "auto", "hey", "ab", "jmeter", "k6", "vegeta", "locust"; a usage error naming `--format` and the accepted
/// names otherwise.
Result<Format> parse_format(std::string_view text);
std::string_view format_name(Format f);
/// The accepted names, comma-separated (for --help and errors).
std::string_view format_names();

/// Recognises the format from the file's first line; a usage error naming the file, what was found and the
/// formats accepted when none matches.
Result<Format> detect_format(const std::string& path);

/// Opens `path` as `format` (auto_detect: detect_format first). Locust's history holds no records: refused
/// here (audit_locust_history reads it).
Result<std::unique_ptr<RecordReader>> open_reader(const std::string& path, Format format);

}  // namespace openloop::audit
