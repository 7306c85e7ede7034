// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The UB/URMA stack authors
// The channels advised with urma_advise_jfr / urma_advise_jetty: pairs of
// a local JFS or jetty and an imported JFR or jetty.
#pragma once

namespace urma {

// Drops every advised pair that names obj (a local JFS or jetty being
// deleted, or a target being unimported), so an object made later at the
// same address starts with none.
void advise_forget(const void *obj);

}  // namespace urma
