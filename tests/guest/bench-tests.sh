# The tests of "make bench", URMA's and rxe's (tests/guest/bench.sh on the
# local path, tests/pair/bench-pair.sh across two guests): the same list
# so that both tables measure the same things. Sourced.
# shellcheck shell=bash

# bench_tests LAT_ITERS BW_ITERS BW_SIZE: one line a test, NAME SIZE ITERS
# IB_BINARY IB_OPTS URMA_OPTS ("-" for none; commas stand for spaces).
bench_tests() {
	cat <<-TESTS
	write_lat 8 $1 ib_write_lat - -
	read_lat 8 $1 ib_read_lat - -
	send_lat 8 $1 ib_send_lat - -
	atomic_lat 8 $1 ib_atomic_lat -A,FETCH_AND_ADD -A,faa
	write_bw $3 $2 ib_write_bw - -
	read_bw $3 $2 ib_read_bw - -
	send_bw $3 $2 ib_send_bw - -
	atomic_bw 8 $2 ib_atomic_bw -A,FETCH_AND_ADD -A,faa
	TESTS
}
