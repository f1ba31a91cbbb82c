# The README's two commands. Both install what is missing first (see .ci/setup).
.PHONY: demo test

# Sets up libcurl and runs the demo against the server it embeds.
demo:
	bash .ci/setup demo
	swift run brick-demo

# Sets up libcurl, nginx and httpbin, then builds and runs every test.
test:
	bash .ci/setup test
	swift build --build-tests
	swift test
