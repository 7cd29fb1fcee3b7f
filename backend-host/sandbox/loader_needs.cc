#include "loader_needs.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <set>
#include <string>

namespace fs = std::filesystem;

namespace ppy::host::internal {
namespace {

constexpr size_t kMaxFiles = 256;
constexpr size_t kMaxTable = size_t{1} << 20;  // a dynamic section or string table larger than this is not believed

/// A file opened for reading, closed on every way out.
class ReadOnly {
 public:
  explicit ReadOnly(const fs::path& p) : fd_(::open(p.c_str(), O_RDONLY | O_CLOEXEC)) {}
  ~ReadOnly() {
    if (fd_ >= 0) ::close(fd_);
  }
  ReadOnly(const ReadOnly&) = delete;
  ReadOnly& operator=(const ReadOnly&) = delete;

  bool ok() const { return fd_ >= 0; }
  /// Exactly `n` bytes at `offset`, or false.
  bool read_at(uint64_t offset, void* out, size_t n) const {
    char* p = static_cast<char*>(out);
    while (n > 0) {
      ssize_t got = ::pread(fd_, p, n, static_cast<off_t>(offset));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) return false;
      p += got;
      n -= static_cast<size_t>(got);
      offset += static_cast<uint64_t>(got);
    }
    return true;
  }
  /// Up to `n` bytes at `offset` (fewer at the end of the file); -1 on an error.
  ssize_t read_some(uint64_t offset, char* out, size_t n) const {
    ssize_t got;
    while ((got = ::pread(fd_, out, n, static_cast<off_t>(offset))) < 0 && errno == EINTR) {
    }
    return got;
  }
  std::optional<std::string> read_string_at(uint64_t offset, size_t n) const {
    if (n > kMaxTable) return std::nullopt;
    std::string s(n, '\0');
    if (!read_at(offset, s.data(), n)) return std::nullopt;
    return s;
  }

 private:
  int fd_;
};

/// What the loader reads of one ELF object.
struct ElfDynamic {
  std::string interpreter;  // PT_INTERP; empty when static
  std::vector<std::string> needed, rpath, runpath;
  bool has_runpath = false;
};

template <class Ehdr, class Phdr, class Dyn>
std::optional<ElfDynamic> read_elf(const ReadOnly& f) {
  Ehdr eh;
  if (!f.read_at(0, &eh, sizeof eh) || eh.e_phentsize != sizeof(Phdr) || eh.e_phnum == 0 || eh.e_phnum > 512)
    return std::nullopt;
  std::vector<Phdr> ph(eh.e_phnum);
  if (!f.read_at(eh.e_phoff, ph.data(), ph.size() * sizeof(Phdr))) return std::nullopt;
  ElfDynamic out;
  const Phdr* dynamic = nullptr;
  for (const Phdr& p : ph) {
    if (p.p_type == PT_INTERP && p.p_filesz > 1) {
      auto s = f.read_string_at(p.p_offset, p.p_filesz);
      if (!s) return std::nullopt;
      out.interpreter = s->c_str();  // NUL-terminated within the segment
    } else if (p.p_type == PT_DYNAMIC) {
      dynamic = &p;
    }
  }
  if (!dynamic) return out;
  if (dynamic->p_filesz > kMaxTable) return std::nullopt;
  std::vector<Dyn> dyn(dynamic->p_filesz / sizeof(Dyn));
  if (!f.read_at(dynamic->p_offset, dyn.data(), dyn.size() * sizeof(Dyn))) return std::nullopt;
  uint64_t strtab = 0, strsz = 0;
  for (const Dyn& d : dyn) {
    if (d.d_tag == DT_NULL) break;
    if (d.d_tag == DT_STRTAB) strtab = d.d_un.d_ptr;
    if (d.d_tag == DT_STRSZ) strsz = d.d_un.d_val;
  }
  // DT_STRTAB is an address: the file offset is that of the loaded segment holding it.
  std::optional<uint64_t> offset;
  for (const Phdr& p : ph)
    if (p.p_type == PT_LOAD && strtab >= p.p_vaddr && strtab < p.p_vaddr + p.p_filesz)
      offset = strtab - p.p_vaddr + p.p_offset;
  if (!offset || strsz == 0) return out;
  auto table = f.read_string_at(*offset, strsz);
  if (!table) return std::nullopt;
  auto at = [&](uint64_t i) { return i < table->size() ? std::string(table->c_str() + i) : std::string(); };
  auto split = [](const std::string& list, std::vector<std::string>& into) {
    for (size_t from = 0; from <= list.size();) {
      size_t colon = list.find(':', from);
      if (colon == std::string::npos) colon = list.size();
      if (colon > from) into.push_back(list.substr(from, colon - from));
      from = colon + 1;
    }
  };
  for (const Dyn& d : dyn) {
    if (d.d_tag == DT_NULL) break;
    if (d.d_tag == DT_NEEDED) out.needed.push_back(at(d.d_un.d_val));
    if (d.d_tag == DT_RPATH) split(at(d.d_un.d_val), out.rpath);
    if (d.d_tag == DT_RUNPATH) {
      out.has_runpath = true;
      split(at(d.d_un.d_val), out.runpath);
    }
  }
  return out;
}

/// The ELF facts of `path` in this machine's byte order, or nothing (not
/// ELF, another byte order, unreadable, malformed).
std::optional<ElfDynamic> read_dynamic(const ReadOnly& f) {
  unsigned char ident[EI_NIDENT];
  if (!f.read_at(0, ident, sizeof ident) || memcmp(ident, ELFMAG, SELFMAG) != 0) return std::nullopt;
  const unsigned char native = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB;
  if (ident[EI_DATA] != native) return std::nullopt;
  if (ident[EI_CLASS] == ELFCLASS64) return read_elf<Elf64_Ehdr, Elf64_Phdr, Elf64_Dyn>(f);
  if (ident[EI_CLASS] == ELFCLASS32) return read_elf<Elf32_Ehdr, Elf32_Phdr, Elf32_Dyn>(f);
  return std::nullopt;
}

/// The interpreter of a `#!` script, or empty.
std::string shebang_interpreter(const ReadOnly& f) {
  char line[256] = {};
  if (f.read_some(0, line, sizeof line - 1) < 2 || strncmp(line, "#!", 2) != 0) return {};
  const char* p = line + 2;
  while (*p == ' ' || *p == '\t') ++p;
  const char* end = p;
  while (*end && *end != ' ' && *end != '\t' && *end != '\n') ++end;
  return std::string(p, end);
}

/// `$ORIGIN` and `${ORIGIN}` in a search-path entry replaced by `origin`;
/// empty for an entry naming `$LIB` or `$PLATFORM` (machine-dependent
/// folders, all of them system ones), or one that stays relative.
fs::path expand(std::string entry, const fs::path& origin) {
  for (const char* token : {"${ORIGIN}", "$ORIGIN"})
    for (size_t at; (at = entry.find(token)) != std::string::npos;) entry.replace(at, strlen(token), origin.string());
  if (entry.find('$') != std::string::npos || entry.empty() || entry[0] != '/') return {};
  return fs::path(entry);
}

bool is_file(const fs::path& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

class Walk {
 public:
  explicit Walk(const VisiblePath& visible) : visible_(visible) {}

  /// Adds what starting the executable `program` (a real path) needs.
  void program(const fs::path& p, int depth) {
    if (depth > 4 || !seen_.insert(p.string()).second) return;
    ReadOnly f(p);
    if (!f.ok()) return;
    if (std::string interpreter = shebang_interpreter(f); !interpreter.empty()) {
      if (interpreter[0] != '/') return;
      need(interpreter);
      std::error_code ec;
      fs::path real = fs::canonical(interpreter, ec);
      if (!ec) program(real, depth + 1);
      return;
    }
    auto elf = read_dynamic(f);
    if (!elf) return;
    if (!elf->interpreter.empty() && elf->interpreter[0] == '/') need(elf->interpreter);
    main_rpath_ = elf->has_runpath ? std::vector<std::string>() : elf->rpath;
    main_origin_ = p.parent_path();
    libraries(*elf, main_origin_);
  }

  std::vector<fs::path> files;

 private:
  /// The libraries `object` (whose `$ORIGIN` is `origin`) names, found the
  /// loader's way through its own RUNPATH, or else its RPATH and then the
  /// executable's.
  void libraries(const ElfDynamic& object, const fs::path& origin) {
    std::vector<fs::path> dirs;
    if (object.has_runpath) {
      for (auto& e : object.runpath) dirs.push_back(expand(e, origin));
    } else {
      for (auto& e : object.rpath) dirs.push_back(expand(e, origin));
      for (auto& e : main_rpath_) dirs.push_back(expand(e, main_origin_));
    }
    for (const std::string& name : object.needed) {
      if (name.empty() || name.find('/') != std::string::npos) continue;
      for (const fs::path& dir : dirs) {
        if (dir.empty()) continue;
        fs::path candidate = (dir / name).lexically_normal();
        if (!is_file(candidate)) continue;
        library(candidate);
        break;  // not found on these paths: from the loader's default folders
      }
    }
  }

  void library(const fs::path& p) {
    if (files.size() >= kMaxFiles || !seen_.insert(p.string()).second) return;
    need(p);
    ReadOnly f(p);
    if (!f.ok()) return;
    if (auto elf = read_dynamic(f)) libraries(*elf, p.parent_path());  // its $ORIGIN: where it was found
  }

  void need(const fs::path& p) {
    if (files.size() >= kMaxFiles || visible_(p)) return;
    for (const fs::path& f : files)
      if (f == p) return;
    files.push_back(p);
  }

  const VisiblePath& visible_;
  std::set<std::string> seen_;
  std::vector<std::string> main_rpath_;
  fs::path main_origin_;
};

}  // namespace

std::vector<fs::path> loader_needs(const fs::path& program, const VisiblePath& visible) {
  Walk walk(visible);
  walk.program(program, 0);
  return std::move(walk.files);
}

}  // namespace ppy::host::internal
