// openloop's entry point: dispatches to one subcommand and maps errors to exit codes (DESIGN.md).
#include <cstdio>

int main(int argc, char** argv) {
  (void)argc;
  (void)argv;
  std::fprintf(stderr, "openloop: not yet\n");
  return 2;
}
