# The README's two commands. Both install what is missing first (see .ci/setup).
.PHONY: demo test bench

# Sets up libcurl and runs the demo against the server it embeds.
demo:
	bash .ci/setup demo
	swift run brick-demo

# Sets up libcurl, nginx and httpbin, then builds and runs every test.
test:
	bash .ci/setup test
	swift build --build-tests
	swift test

# Sets up libcurl and nginx, then runs brick-bench side by side with curl-bench (raw libcurl in C) and prints
# the table (see Docs/Performance.md).
bench:
	bash .ci/setup bench
	bash .ci/bench
