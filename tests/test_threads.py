"""scorekit._threads.run_two: the one place where work is split over the two pool threads."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from scorekit._threads import parallel_pool, run_two, take_two


def test_results_in_order_and_second_on_a_pool_thread():
    names = []

    def where(tag):
        names.append((tag, threading.current_thread().name))
        return tag

    assert run_two(lambda: where("a"), lambda: where("b")) == ("a", "b")
    seen = dict(names)
    assert seen["a"] == threading.current_thread().name
    assert seen["b"].startswith("scorekit-sort")


def test_workers_that_split_again_do_not_wait_on_the_pool():
    # Both pool workers call run_two at once: were each to queue its second half and
    # wait, no worker would be left to run them (a deadlock). They run both halves there.
    barrier = threading.Barrier(2)

    def job(k):
        barrier.wait(timeout=10)
        return run_two(lambda: k, lambda: -k)

    pool = parallel_pool()
    futures = [pool.submit(job, k) for k in (1, 2)]
    assert [f.result(timeout=20) for f in futures] == [(1, -1), (2, -2)]


def test_an_error_in_first_waits_for_second_then_propagates():
    done = []

    def slow():
        time.sleep(0.2)
        done.append(True)

    def fail():
        raise ValueError("first failed")

    with pytest.raises(ValueError, match="first failed"):
        run_two(fail, slow)
    assert done == [True]


def test_take_two_is_np_take():
    rng = np.random.default_rng(0)
    values = rng.random(1000)
    index = rng.integers(0, 1000, 3 << 20)
    np.testing.assert_array_equal(take_two(values, index), values[index])
