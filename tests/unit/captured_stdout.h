// What a piece of a test prints on standard output: a host call prints there, as printf does,
// below any C++ stream, so the file descriptor itself is redirected to a file for the call.
#pragma once
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace test {

template <class Body> std::string printed_by(Body body) {
  std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("pykern-stdout-" + std::to_string(::getpid()) + ".txt");
  std::fflush(stdout);
  int saved = ::dup(STDOUT_FILENO);
  int redirected = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  ::dup2(redirected, STDOUT_FILENO);
  ::close(redirected);
  body();
  std::fflush(stdout);
  ::dup2(saved, STDOUT_FILENO);
  ::close(saved);
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  std::filesystem::remove(file);
  return text.str();
}

}  // namespace test
