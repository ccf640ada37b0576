// Runs one function on several threads started together, and rethrows the first
// exception any of them threw once all have finished.
#pragma once

#include <cstddef>
#include <functional>

namespace sprig::test {

// Calls work(0) .. work(threads - 1), each on its own thread, released at the same moment
// so that they really contend.
void run_on_threads(std::size_t threads, const std::function<void(std::size_t thread)>& work);

}  // namespace sprig::test
