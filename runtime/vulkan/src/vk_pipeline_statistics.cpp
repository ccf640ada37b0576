#include "vk_pipeline_statistics.hpp"

#include <string>
#include <vector>

#include "vk_result.hpp"

namespace sprig::vk {

namespace {

DriverStatistic statistic_of(const VkPipelineExecutableStatisticKHR& s) {
  DriverStatistic out;
  out.name = s.name;
  out.description = s.description;
  switch (s.format) {
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: out.value = s.value.b32 == VK_TRUE; break;
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: out.value = s.value.i64; break;
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: out.value = s.value.u64; break;
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR: out.value = s.value.f64; break;
    default: out.value = s.value.u64; break;
  }
  return out;
}

}  // namespace

std::shared_ptr<const KernelStatistics> read_pipeline_statistics(VkDevice device, const VolkDeviceTable& vk,
                                                                 VkPipeline pipeline) {
  VkPipelineInfoKHR pipeline_info{};
  pipeline_info.sType = VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR;
  pipeline_info.pipeline = pipeline;
  std::uint32_t count = 0;
  VkResult result = vk.vkGetPipelineExecutablePropertiesKHR(device, &pipeline_info, &count, nullptr);
  std::vector<VkPipelineExecutablePropertiesKHR> properties(count);
  for (auto& p : properties) p.sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR;
  if (result == VK_SUCCESS && count > 0) {
    result = vk.vkGetPipelineExecutablePropertiesKHR(device, &pipeline_info, &count, properties.data());
  }
  if (result != VK_SUCCESS && result != VK_INCOMPLETE) {
    return unavailable_statistics(std::string("vkGetPipelineExecutablePropertiesKHR failed: ") + result_name(result));
  }
  if (count == 0) return unavailable_statistics("the driver reported no executables for the pipeline");

  auto statistics = std::make_shared<KernelStatistics>();
  for (std::uint32_t i = 0; i < count; ++i) {
    PipelineExecutableStatistics executable;
    executable.name = properties[i].name;
    executable.description = properties[i].description;
    executable.subgroup_size = properties[i].subgroupSize;
    VkPipelineExecutableInfoKHR executable_info{};
    executable_info.sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR;
    executable_info.pipeline = pipeline;
    executable_info.executableIndex = i;
    std::uint32_t statistic_count = 0;
    result = vk.vkGetPipelineExecutableStatisticsKHR(device, &executable_info, &statistic_count, nullptr);
    std::vector<VkPipelineExecutableStatisticKHR> values(statistic_count);
    for (auto& v : values) v.sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR;
    if (result == VK_SUCCESS && statistic_count > 0) {
      result = vk.vkGetPipelineExecutableStatisticsKHR(device, &executable_info, &statistic_count, values.data());
    }
    if (result != VK_SUCCESS && result != VK_INCOMPLETE) {
      return unavailable_statistics(std::string("vkGetPipelineExecutableStatisticsKHR failed: ") + result_name(result));
    }
    for (std::uint32_t s = 0; s < statistic_count; ++s) executable.statistics.push_back(statistic_of(values[s]));
    statistics->executables.push_back(std::move(executable));
  }
  return statistics;
}

}  // namespace sprig::vk
