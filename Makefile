# Campfire: `make run` and `make test` are all a fresh Debian bookworm machine needs.
.PHONY: all deps build test test-asan run format clean

all: build

deps:
	@scripts/install-deps.sh

build: deps
	cmake --preset default
	cmake --build --preset default

test: build
	ctest --preset default

# The whole suite under AddressSanitizer and UndefinedBehaviorSanitizer (smaller playout counts).
test-asan: deps
	cmake --preset asan
	cmake --build --preset asan
	ctest --preset asan

run: build
	@echo "The server arrives with the next milestone; 'make test' builds and tests the engine."

format:
	find engine protocol server clients tests bench -name '*.[ch]pp' | xargs -r clang-format -i

clean:
	rm -rf build
