#include "core/thread_name.h"

#include <pthread.h>

namespace openloop {

void name_this_thread(const std::string& name) {
  pthread_setname_np(pthread_self(), name.substr(0, 15).c_str());
}

}  // namespace openloop
