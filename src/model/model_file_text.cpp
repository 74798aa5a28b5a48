#include "saltus/model/model_file_text.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace saltus::model {
namespace {

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

// Closes the descriptor on every path out.
struct FileDescriptor {
  int fd;
  ~FileDescriptor() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::string read_model_file_text(const std::filesystem::path& path,
                                 std::vector<Diagnostic>& diagnostics) {
  auto refuse = [&](const std::string& why) {
    diagnostics.push_back({path.string(), 0, 0, why});
    return std::string();
  };
  // O_NONBLOCK: opening a FIFO for reading must not wait for a writer.
  const FileDescriptor file{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (file.fd < 0) {
    return refuse(std::string("cannot open the model file: ") + std::strerror(errno));
  }
  struct stat info {};
  if (::fstat(file.fd, &info) != 0) {
    return refuse(std::string("cannot inspect the model file: ") + std::strerror(errno));
  }
  if (!S_ISREG(info.st_mode)) {
    return refuse(std::string("the model file is ") + kind_of(info.st_mode) +
                  "; expected a regular TOML file");
  }
  const std::string limit = std::to_string(kMaxModelFileBytes >> 20) + " MiB";
  if (static_cast<std::size_t>(info.st_size) > kMaxModelFileBytes) {
    return refuse("the model file has " + std::to_string(info.st_size) + " bytes; the limit is " +
                  limit);
  }
  // Read at most one byte past the limit: the file may grow after fstat.
  std::string text;
  char buffer[65536];
  for (;;) {
    const ssize_t n = ::read(file.fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return refuse(std::string("cannot read the model file: ") + std::strerror(errno));
    if (n == 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
    if (text.size() > kMaxModelFileBytes) {
      return refuse("the model file is larger than the limit of " + limit);
    }
  }
  return text;
}

}  // namespace saltus::model
