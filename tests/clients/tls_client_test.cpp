// campfire-bot and campfire-cli over wss:// against a server with a self-signed certificate.
#include "tests/clients/client_test_support.hpp"
#include "tests/support/self_signed.hpp"

namespace campfire::test {
namespace {

class TlsClients : public ClientTest {
 protected:
  void SetUp() override {
    std::signal(SIGPIPE, SIG_IGN);
    spdlog::set_level(spdlog::level::warn);
    server::Config config;
    config.bind = "127.0.0.1";
    config.port = 0;
    config.test_mode = true;
    config.bot_delay_ms = 0;
    config.tls_cert = cert_.cert();
    config.tls_key = cert_.key();
    server_ = std::make_unique<server::Server>(config);
    port_ = server_->start();
  }
  SelfSignedCert cert_;
};

TEST_F(TlsClients, BotPlaysAWholeGameOverWss) {
  Process bot(bot_args({"--tls", "--insecure", "--game", "pinocchio", "--seats", "3", "--fill-bots",
                        "--seed", "5", "--deal-seed", "5"}));
  ASSERT_EQ(bot.wait(60s), 0) << bot.output();
  EXPECT_NE(bot.output().find("game over in room"), std::string::npos) << bot.output();
  EXPECT_EQ(lines_starting(bot.output(), "result ").size(), 1u) << bot.output();
}

TEST_F(TlsClients, BotRefusesAnUnverifiedCertificateAndPlainConnections) {
  Process checked(bot_args({"--tls", "--game", "pinocchio", "--seats", "2", "--fill-bots"}));
  EXPECT_EQ(checked.wait(30s), 1) << checked.output();
  Process plain(bot_args({"--game", "pinocchio", "--seats", "2", "--fill-bots"}));
  EXPECT_EQ(plain.wait(30s), 1) << plain.output();
}

// campfire-cli over wss:// shows what the operator says: a notice, then its room being closed.
TEST_F(TlsClients, CliShowsNoticesAndAClosedRoom) {
  Process cli({CAMPFIRE_CLI_BINARY, "--port", port(), "--tls", "--insecure", "--name", "Andrea",
               "--token-file", (cert_.dir() / "tokens.json").string()});
  cli.write("create pinocchio 2\n");
  std::string room;
  for (int i = 0; i < 50 && room.empty(); ++i) {
    const auto line = cli.read_line(10s);
    if (!line) break;
    if (const auto at = line->find("joined room "); at != std::string::npos) {
      room = line->substr(at + 12, 6);
    }
  }
  ASSERT_EQ(room.size(), 6u) << cli.output();
  server_->context().broadcast(server::make_frame(R"({"type":"notice","text":"back soon"})"));
  ASSERT_TRUE(server_->context().lobby.close(room, "maintenance"));
  // Give the pushes time to arrive before quitting.
  for (int i = 0; i < 50; ++i) {
    const auto line = cli.read_line(10s);
    if (!line || line->find("was closed") != std::string::npos) break;
  }
  cli.write("quit\n");
  cli.close_stdin();
  ASSERT_EQ(cli.wait(30s), 0) << cli.output();
  EXPECT_NE(cli.output().find("*** notice from the server: back soon"), std::string::npos)
      << cli.output();
  EXPECT_NE(cli.output().find("room " + room + " was closed: maintenance"), std::string::npos)
      << cli.output();
}

}  // namespace
}  // namespace campfire::test
