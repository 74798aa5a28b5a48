#include "command_binding.hpp"

#include <pybind11/stl.h>

#include <cstdio>
#include <iostream>
#include <mutex>
#include <streambuf>
#include <string>
#include <vector>

#include "command_line.hpp"

namespace py = pybind11;

namespace saltus::python {
namespace {

// Keeps what is written to a stream and, unless `forward` is null, passes it on: the Python
// package raises with the command's message and still shows the command's output as it comes.
class TeeBuffer : public std::streambuf {
 public:
  explicit TeeBuffer(std::streambuf* forward) : forward_(forward) {}

  std::string text() {
    std::lock_guard lock(mutex_);
    return text_;
  }

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    const char ch = traits_type::to_char_type(c);
    return xsputn(&ch, 1) == 1 ? c : traits_type::eof();
  }
  // The commands' worker threads may write too.
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    std::lock_guard lock(mutex_);
    text_.append(s, static_cast<size_t>(n));
    if (forward_ != nullptr) forward_->sputn(s, n);
    return n;
  }
  int sync() override {
    std::lock_guard lock(mutex_);
    return forward_ != nullptr ? forward_->pubsync() : 0;
  }

 private:
  std::mutex mutex_;
  std::streambuf* forward_;
  std::string text_;
};

// Puts a TeeBuffer in place of a stream's buffer for one command; puts the old one back.
class Capture {
 public:
  Capture(std::ostream& stream, bool echo)
      : stream_(stream), tee_(echo ? stream.rdbuf() : nullptr), old_(stream.rdbuf(&tee_)) {}
  ~Capture() {
    stream_.flush();
    stream_.rdbuf(old_);
  }
  Capture(const Capture&) = delete;
  Capture& operator=(const Capture&) = delete;
  std::string text() { return tee_.text(); }

 private:
  std::ostream& stream_;
  TeeBuffer tee_;
  std::streambuf* old_;
};

// std::cout and std::cerr belong to the whole process: one command at a time.
std::mutex command_mutex;

}  // namespace

void bind_command(py::module_& m) {
  m.def(
      "command",
      [](const std::vector<std::string>& args, bool echo) {
        int status = 0;
        std::string out, err;
        {
          py::gil_scoped_release no_gil;
          std::lock_guard lock(command_mutex);
          Capture out_capture(std::cout, echo), err_capture(std::cerr, echo);
          status = saltus::cli::run_command_line(args);
          std::cout.flush();
          out = out_capture.text();
          err = err_capture.text();
        }
        std::fflush(stdout);
        std::fflush(stderr);
        return py::make_tuple(status, out, err);
      },
      py::arg("args"), py::arg("echo") = true,
      "Runs `saltus ARGS...` in this process (the GIL released); returns (exit status, what it "
      "printed to stdout, to stderr). With echo the output is printed as well.");
}

}  // namespace saltus::python
