#include "server/server.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/post.hpp>
#include <future>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/ssl/context.hpp>
#include <filesystem>
#include <unistd.h>

#include "server/descriptors.hpp"
#include "server/forwarding.hpp"
#include "server/listener.hpp"

namespace campfire::server {

Server::Server(Config config)
    : config_(std::move(config)),
      ioc_(std::make_unique<boost::asio::io_context>(config_.threads)),
      ctx_(std::make_unique<ServerContext>(*ioc_, config_)),
      sweeper_(std::make_unique<boost::asio::steady_timer>(*ioc_)),
      publisher_(std::make_unique<boost::asio::steady_timer>(*ioc_)),
      silence_(std::make_unique<boost::asio::steady_timer>(*ioc_)) {
  if (!config_.tls_cert.empty() || !config_.tls_key.empty()) {
    if (config_.tls_cert.empty() || config_.tls_key.empty()) {
      throw std::runtime_error("TLS needs both a certificate and its key");
    }
    namespace ssl = boost::asio::ssl;
    auto tls = std::make_shared<ssl::context>(ssl::context::tls_server);
    tls->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                     ssl::context::no_sslv3 | ssl::context::no_tlsv1 |
                     ssl::context::no_tlsv1_1 | ssl::context::single_dh_use);
    boost::system::error_code ec;
    tls->use_certificate_chain_file(config_.tls_cert, ec);
    if (ec) throw std::runtime_error("TLS certificate " + config_.tls_cert + ": " + ec.message());
    tls->use_private_key_file(config_.tls_key, ssl::context::pem, ec);
    if (ec) throw std::runtime_error("TLS key " + config_.tls_key + ": " + ec.message());
    if (SSL_CTX_check_private_key(tls->native_handle()) != 1) {
      throw std::runtime_error("TLS key " + config_.tls_key + " does not match the certificate");
    }
    ctx_->tls = std::move(tls);
  }
}

Server::~Server() {
  stop();
  // Rooms own timers of the io_context, and sessions kept alive by its pending handlers use the
  // context: drop the rooms first, then the io_context (ending those handlers and any room they
  // still hold while its services exist), and the context last.
  ctx_->lobby.clear();
  if (ctx_->forwarding) ctx_->forwarding->clear();
  listener_.reset();
  sweeper_.reset();
  publisher_.reset();
  silence_.reset();
  // The journal's last completions post to rooms' strands: end it while the io_context exists.
  ctx_->journal.reset();
  // Redis' last answers (a lookup, a claim) post to the io_context too.
  if (ctx_->cluster) ctx_->cluster->disconnect();
  ioc_.reset();
  ctx_.reset();
}

std::uint16_t Server::start() {
  const Descriptors fds = prepare_descriptors();
  spdlog::info("open files allowed: {} (descriptor table ready for {})", fds.limit, fds.reserved);
  // A node's rooms are those the directory gives it (its own from an earlier run first, then
  // those of nodes that died); one process alone has every room of its journal.
  if (!ctx_->cluster) ctx_->lobby.restore();
  const auto address = boost::asio::ip::make_address(config_.bind);
  listener_ = std::make_shared<Listener>(*ctx_, boost::asio::ip::tcp::endpoint(address, config_.port));
  listener_->run();
  if (ctx_->cluster) join_cluster(listener_->port());
  sweep_later();
  listen_for_silence();
  for (int i = 0; i < config_.threads; ++i) {
    threads_.emplace_back([this] { ioc_->run(); });
  }
  spdlog::info("listening on {}:{} ({}) with {} threads{}", config_.bind, listener_->port(),
               ctx_->tls ? "https and wss" : "http and ws", config_.threads,
               config_.test_mode ? " (test mode)" : "");
  return listener_->port();
}

void Server::join_cluster(std::uint16_t port) {
  std::string advertise = config_.advertise;
  if (advertise.empty()) {
    std::string host = config_.bind;
    if (host == "0.0.0.0" || host == "::") {
      char name[256] = {};
      host = ::gethostname(name, sizeof name - 1) == 0 ? name : "localhost";
    }
    advertise = host + ":" + std::to_string(port);
  }
  cluster::Directory::Callbacks callbacks;
  // The directory calls from its own thread; rooms are built and stopped on the server's.
  callbacks.claimed = [this](const std::string& code, long long epoch) {
    boost::asio::post(*ioc_, [this, code, epoch] {
      // Connections anywhere that were in the room follow it here once it is rebuilt.
      if (ctx_->lobby.adopt(code, epoch)) ctx_->forwarding->claimed(code);
    });
  };
  callbacks.lapsed = [this] {
    boost::asio::post(*ioc_, [this] {
      ctx_->lobby.suspend_all(
          "this server lost its lease in the cluster (it cannot reach redis); the room is paused "
          "and resumes on whichever node takes it over: reconnect and rejoin");
    });
  };
  // Its connections' seats here wait for them; connections here in its rooms follow them to
  // their new owners.
  callbacks.node_gone = [this](const std::string& node, const std::string& incarnation) {
    ctx_->forwarding->node_gone(node, incarnation);
  };
  ctx_->cluster->start(advertise, std::move(callbacks));
  spdlog::info("cluster node {} at {}", ctx_->cluster->node(), advertise);
  publish_later();
}

void Server::publish_later() {
  publisher_->expires_after(std::chrono::seconds(1));
  publisher_->async_wait([this](boost::system::error_code ec) {
    if (ec) return;
    ctx_->cluster->publish(ctx_->lobby.summaries());
    publish_later();
  });
}

void Server::sweep_later() {
  sweeper_->expires_after(std::chrono::seconds(30));
  sweeper_->async_wait([this](boost::system::error_code ec) {
    if (ec) return;
    ctx_->lobby.sweep();
    sweep_later();
  });
}

void Server::listen_for_silence() {
  silence_->expires_after(ctx_->silence_interval());
  silence_->async_wait([this](boost::system::error_code ec) {
    if (ec) return;
    ctx_->check_silence();
    listen_for_silence();
  });
}

void Server::run_until_signal() {
  boost::asio::io_context signals_ioc;
  boost::asio::signal_set signals(signals_ioc, SIGINT, SIGTERM);
  signals.async_wait([](boost::system::error_code, int signal) {
    spdlog::info("signal {}: shutting down", signal);
  });
  signals_ioc.run();
  stop();
}

void Server::stop() {
  if (stopped_) return;
  stopped_ = true;
  ctx_->draining = true;
  if (listener_) listener_->stop();
  boost::asio::post(*ioc_, [this] {
    sweeper_->cancel();
    publisher_->cancel();
    silence_->cancel();
  });
  // Rooms stop taking moves, the journal commits what they accepted (releasing the frames that
  // wait for it), then every client is told and closed.
  ctx_->lobby.shutdown();
  ctx_->journal->flush();
  // A node gives its lease up: the other nodes take its rooms over at once.
  if (ctx_->cluster) ctx_->cluster->stop(true);
  {
    // Let the rooms' strands hand out the frames the last commits released.
    const auto settle = std::chrono::steady_clock::now() + std::chrono::milliseconds(200);
    while (std::chrono::steady_clock::now() < settle) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  ctx_->close_all();
  // Give close handshakes and queued writes a moment, then stop the threads.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (ctx_->connections.load() > 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ioc_->stop();
  for (auto& t : threads_) t.join();
  threads_.clear();
  spdlog::info("stopped");
}

std::string default_web_root(const char* argv0) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path exe = fs::canonical(fs::path("/proc/self/exe"), ec);
  const fs::path base = ec ? fs::path(argv0).parent_path() : exe.parent_path();
  for (const fs::path& candidate :
       {base / "web", base / "../share/campfire/web", fs::path(CAMPFIRE_SOURCE_DIR) / "clients/web",
        fs::path("clients/web")}) {
    if (fs::exists(candidate / "index.html", ec)) return fs::weakly_canonical(candidate).string();
  }
  return "clients/web";
}

}  // namespace campfire::server
