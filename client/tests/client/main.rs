//! The client's tests: the window driven headless by its labels, the games played live against a
//! host in this process, the bot's command line and the fuzzed decoders. One test binary.

mod bolide_bot_cli;
mod fuzz_client;
mod live_games;
mod window;
