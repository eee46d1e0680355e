// campfire-server: the entry point. Reads the configuration, sets up logging, serves until a
// signal asks it to stop.
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <nlohmann/json.hpp>

#include "server/config.hpp"
#include "server/server.hpp"

namespace {

// One JSON object per log line, with the message properly escaped.
class JsonFormatter final : public spdlog::formatter {
 public:
  explicit JsonFormatter(std::string node) : node_(std::move(node)) {}

  void format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) override {
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        msg.time.time_since_epoch())
                        .count();
    nlohmann::json line = {
        {"ts", ms},
        {"level", std::string(spdlog::level::to_string_view(msg.level).data(),
                              spdlog::level::to_string_view(msg.level).size())},
        {"msg", std::string(msg.payload.data(), msg.payload.size())}};
    if (!node_.empty()) line["node"] = node_;
    const std::string text =
        line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    dest.append(text.data(), text.data() + text.size());
  }
  std::unique_ptr<spdlog::formatter> clone() const override {
    return std::make_unique<JsonFormatter>(node_);
  }

 private:
  std::string node_;  // a cluster node's id, on every line
};

}  // namespace

int main(int argc, char** argv) {
  campfire::server::Config config = campfire::server::parse_config(argc, argv);
  auto logger = spdlog::stdout_color_mt("campfire");
  spdlog::set_default_logger(logger);
  spdlog::set_level(spdlog::level::from_str(config.log_level));
  if (config.json_logs) {
    spdlog::set_formatter(std::make_unique<JsonFormatter>(config.node_id));
  } else if (!config.node_id.empty()) {
    // In a cluster every line names its node, so the logs of several nodes can be read together.
    spdlog::set_pattern("[%Y-%m-%d %H:%M:%S.%e] [" + config.node_id + "] [%^%l%$] %v");
  }
  if (config.web_root.empty()) config.web_root = campfire::server::default_web_root(argv[0]);
  try {
    campfire::server::Server server(config);
    server.start();
    spdlog::info("browser client from {}; memory allocator: {}", config.web_root,
                 CAMPFIRE_ALLOCATOR_NAME);
    server.run_until_signal();
  } catch (const std::exception& e) {
    spdlog::critical("cannot serve: {}", e.what());
    return 1;
  }
  return 0;
}
