// A bundle's Data as the header `pykern bundle` writes would hold it, built in memory from
// what make_bundle compiled: for tests that load bundles without compiling a header.
#pragma once
#include <deque>
#include <string>
#include <vector>

#include "bundle/bundle.h"
#include "pykern/bundle.h"

namespace test {

// Points into `contents`, which must outlive it.
struct HeaderData {
  std::vector<std::vector<pykern::bundle::Parameter>> parameters;
  std::vector<pykern::bundle::Kernel> kernels;
  std::vector<pykern::bundle::Image> images;
  std::deque<std::string> descrs;  // stays where it is as it grows
  pykern::bundle::Data data{};

  HeaderData(const HeaderData&) = delete;  // points into itself
  explicit HeaderData(const pykern::bundle::Contents& contents) {
    for (const pykern::CompiledKernel& k : contents.kernels) {
      std::vector<pykern::bundle::Parameter> list;
      for (const pykern::ParameterInfo& p : k.parameters) {
        descrs.push_back(p.dtype.descr());
        list.push_back({p.name.c_str(), p.is_array, descrs.back().c_str(), p.ndim, p.layout});
      }
      parameters.push_back(std::move(list));
    }
    for (size_t i = 0; i < contents.kernels.size(); ++i) {
      const pykern::CompiledKernel& k = contents.kernels[i];
      kernels.push_back({k.function.c_str(), k.symbol.c_str(), k.signature.c_str(), parameters[i].data(),
                         static_cast<int>(parameters[i].size()), k.debug, k.cooperative, k.prints});
    }
    for (const auto& image : contents.images)
      images.push_back({image.arch.c_str(), image.bytes.data(), image.bytes.size(),
                        pykern::bundle::checksum(image.bytes.data(), image.bytes.size())});
    data = {pykern::bundle::format_version, pykern::version(), contents.source_name.c_str(), kernels.data(),
            static_cast<int>(kernels.size()), images.empty() ? nullptr : images.data(),
            static_cast<int>(images.size()), contents.host_library.empty() ? nullptr : contents.host_library.data(),
            contents.host_library.size(),
            pykern::bundle::checksum(contents.host_library.data(), contents.host_library.size()),
            pykern::bundle::host_target()};
  }
};

}  // namespace test
