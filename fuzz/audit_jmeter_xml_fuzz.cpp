// Fuzz target: JMeter's XML JTL, the incremental tag scanner (src/audit/jmeter_xml_reader): every record, the
// bad lines and the notes.
#include <cstddef>
#include <cstdint>

#include "audit/jmeter_xml_reader.h"
#include "audit_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto reader = openloop::audit::JmeterXmlReader::open(openloop::fuzz::audit_input(data, size));
  return openloop::fuzz::drain_audit_reader(reader);
}
