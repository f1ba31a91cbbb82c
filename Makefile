# The README's two commands. Both install what is missing first (see .ci/setup).
.PHONY: demo test bench instructions sanitize fuzz autobahn ws-bench docs soak load chaos retry-safety outage queue-bench

# Sets up libcurl and runs the demo against the server it embeds.
demo:
	bash .ci/setup demo
	swift run brick-demo

# Sets up libcurl, nginx and httpbin, checks the layers' imports (.ci/layers), the functions' lengths
# (.ci/sizes.py), that the README's dependency lines resolve (.ci/dependency-line), the CHANGELOG's form
# (.ci/changelog.py), that Tests/DocSamples holds every Swift sample of the README and Docs/
# (.ci/doc-samples.py), that every article opens with a sentence for DocC's abstract (.ci/abstracts.py) and
# that the pages give one install line, the one .ci/setup installs
# (.ci/install-line.py), then builds once (the samples compile with the rest) and runs every test, with every
# package trait on (the integrations and their dependencies: Package.swift).
test:
	bash .ci/setup test
	bash .ci/layers
	python3 .ci/sizes.py
	bash .ci/dependency-line
	python3 .ci/changelog.py
	python3 .ci/doc-samples.py --check
	python3 .ci/abstracts.py
	python3 .ci/install-line.py
	swift build --build-tests --enable-all-traits
	swift test --skip-build --enable-all-traits

# Sets up libcurl and nginx, then runs brick-bench side by side with curl-bench (raw libcurl in C) and prints
# the table (see Docs/Performance.md).
bench:
	bash .ci/setup bench
	bash .ci/bench

# Instructions (callgrind) and allocations per request of raw libcurl and the floor (as they always ran, and
# with libcurl used at its cheapest: -best; the best floor with the default request's libcurl work) and
# BrickRequest in S1, S2, S4, S1transport, S1readme and S1features; one INSTRUCTIONS line each (see
# Docs/Performance.md).
instructions:
	bash .ci/instructions

# The test suite under ThreadSanitizer and AddressSanitizer (see Docs/Reliability.md); CI runs it too.
sanitize:
	bash .ci/sanitize

# WebSocket echo round trips and MB/s (1 KiB, 1 MiB) through the library beside Python's websockets client.
ws-bench:
	bash .ci/ws-bench

# Every client case of Autobahn|Testsuite (517) against the library's WebSocket client; CI runs it too.
autobahn:
	bash .ci/autobahn

# Every fuzz target for a bounded number of runs (FUZZ_RUNS, default 20000) from its committed corpus;
# FUZZ_SECONDS=N runs each for N seconds instead (the longer run in Docs/Reliability.md).
fuzz:
	bash .ci/fuzz

# The API documentation with DocC: every public symbol documented, Docs/ as articles, warnings as errors;
# the archive is .build/docs/merged/BrickRequest.doccarchive. CI runs it too.
docs:
	bash .ci/setup demo
	bash .ci/docs

# One million requests through the full brick path (SOAK_REQUESTS); memory and descriptors must stay flat.
soak:
	bash .ci/soak soak

# Ten thousand requests in flight at once (LOAD_IN_FLIGHT).
load:
	bash .ci/soak load

# A thousand requests waiting while the route is down, and when each arrives once it returns, beside raw
# libcurl's burst after the same outage (OUTAGE_WAITING, OUTAGE_RUNS).
outage:
	bash .ci/outage

# Queued requests delivered per second: SQLite in one process, PostgreSQL with 1, 2 and 3 processes
# (QUEUE_REQUESTS); one QUEUE line each (see Docs/Performance.md).
queue-bench:
	bash .ci/queue-bench

# Minutes of faults and outages against 64 concurrent requests, in a private network namespace (CHAOS_SECONDS).
chaos:
	bash .ci/chaos

# The origin protections against real servers (a retry storm with and without the budget, the breaker, a
# shared Retry-After, an outage in a private network namespace); one RETRY line of figures.
retry-safety:
	bash .ci/setup test
	bash .ci/retry-safety
