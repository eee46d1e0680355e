# Campfire: `make run` and `make test` are all a fresh Debian bookworm machine needs.
.PHONY: all deps build test test-asan fuzz run bench arena format clean container-deps container-test game-pages

# Share the compiler cache between checkouts of this tree (paths are made relative to it).
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := 1

all: build

deps:
	@scripts/install-deps.sh

build: deps
	cmake --preset default
	cmake --build --preset default

# The test suites, then every fuzz target for FUZZ_SMOKE_SECONDS each (scripts/fuzz.sh).
FUZZ_SMOKE_SECONDS ?= 10
test: build
	ctest --preset default
	FUZZ_FRESH=1 scripts/fuzz.sh $(FUZZ_SMOKE_SECONDS)

# Writes protocol/games/<id>.md anew from each game's declaration in the engine (a test fails
# while a committed page differs from it).
game-pages: build
	CAMPFIRE_WRITE_GAME_PAGES=1 ./build/default/tests/campfire_engine_tests --gtest_filter='GamePages.*'

# Long fuzzing runs: every libFuzzer target for FUZZ_SECONDS each (clang, ASan, UBSan).
FUZZ_SECONDS ?= 600
fuzz: deps
	scripts/fuzz.sh $(FUZZ_SECONDS)

# The whole suite under AddressSanitizer and UndefinedBehaviorSanitizer (smaller playout counts,
# no browser tests, no strength arena).
test-asan: deps
	cmake --preset asan
	cmake --build --preset asan
	ctest --preset asan

# Builds and serves the browser client and the WebSocket protocol on http://localhost:8080.
# Extra flags: make run ARGS="--port 9000 --log-level debug"
run: build
	./build/default/server/campfire-server --port 8080 $(ARGS)

# Benchmarks in a Release build; numbers are printed, never asserted. The engine and room
# micro-benchmarks, then scripts/bench.py: the server under campfire-load against the bare echo
# server, pinned to different cores. Extra flags: make bench BENCH_ARGS="--quick" (see --help).
bench: deps
	cmake --preset release
	cmake --build --preset release --target campfire_engine_bench campfire_room_bench campfire-server campfire-load campfire-echo-server campfire-journal-bench
	./build/release/bench/campfire_engine_bench --benchmark_min_time=0.2
	./build/release/bench/campfire_room_bench --benchmark_min_time=0.2
	./build/release/bench/campfire-journal-bench --rooms 1
	./build/release/bench/campfire-journal-bench --rooms 100
	./build/release/bench/campfire-journal-bench --rooms 1000
	python3 scripts/bench.py --output build/release/bench/load.md $(BENCH_ARGS)

# The arena: the measurements of README's arena table, cell by cell. Heads-up, seats rotated,
# seeded, and expert on a fixed number of search iterations a move instead of a clock, so every
# run plays the same games whatever the machine's load. Win shares (and games won, tied and
# lost) and mean places with 95% intervals and time per move are printed, never asserted. Long
# (about an hour on two idle cores): not part of `make test`, which plays a small bounded arena.
# Other comparisons: run build/default/bots/campfire-arena directly (README, The arena).
ARENA = nice -n 10 ./build/default/bots/campfire-arena --jobs 2 --seed 1 --think-ms 0
arena: build
	$(ARENA) --lineup basic,random --games 1000
	$(ARENA) --lineup expert,random --games 200 --think-iterations 300 --game pinocchio,fib-fibonacci
	$(ARENA) --lineup expert,random --games 200 --think-iterations 100 --game naked-gibbon
	$(ARENA) --lineup expert,random --games 400 --think-iterations 300 --game spider-monkey
	$(ARENA) --lineup expert,random --games 1000 --think-iterations 300 --game tricky-tribes
	$(ARENA) --lineup expert,basic --games 200 --think-iterations 300 --game pinocchio,naked-gibbon,spider-monkey,tricky-tribes
	$(ARENA) --lineup expert,basic --games 400 --think-iterations 300 --game fib-fibonacci

# The container image (docker/Dockerfile), checked for real by docker/test.sh with Docker or
# podman: health, a whole game over the published port, a room surviving a restart; then the
# cluster of docker/compose.cluster.yaml (Redis, three nodes, HAProxy) by docker/cluster_test.sh:
# every game played through HAProxy while nodes are killed. Not part of `make test`;
# container-deps installs podman, podman-compose, runc and debootstrap when there is no Docker
# engine.
container-deps:
	@docker/deps.sh

container-test: deps container-deps
	cmake --preset default
	cmake --build --preset default --target campfire-bot
	docker/test.sh build/default/clients/campfire-bot
	docker/cluster_test.sh

format:
	find engine protocol server clients tests bench -name '*.[ch]pp' | xargs -r clang-format -i

clean:
	rm -rf build

# The browser client's end-to-end tests in chromium, long form: every game is played further.
.PHONY: test-web
test-web: build
	CAMPFIRE_WEB_LONG=1 ctest --preset default -L web
