#pragma once
/// How `ppy plugins` and `ppy doctor` print the installed plugins (plugins_command.cc).
#include <iosfwd>
#include <string_view>

#include "ppy/host/discovery.h"
#include "ppy/project/project.h"

namespace ppy::driver {

/// One entry per usable plugin: its distribution, the modules it owns, its
/// stub, libraries and pass server, its fingerprint, and whether `project`
/// (may be null) turns it off. Each line starts with `indent`.
void print_plugins(const host::ManifestIndex& index, const Project* project, std::ostream& out,
                   std::string_view indent);

struct Streams;
/// `ppy plugins`: the installed plugins discovery finds, their fingerprints and
/// problems, without starting anything.
int list_plugins(Streams io);

}  // namespace ppy::driver
