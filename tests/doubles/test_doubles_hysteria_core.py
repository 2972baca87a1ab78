"""The doubles' Hysteria 2 core bookkeeping (common/hysteria_core.py): totals
that outlive a core restart. The cores themselves run in
compat.panel.3x-ui-double-hysteria2 and scenario.one_server_3x_ui_double."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common.hysteria_core import Totals  # noqa: E402


class TotalsTest(unittest.TestCase):
    def test_reads_add_what_the_core_counted_since_the_last(self):
        state = {}
        t = Totals(state)
        t.fold(1, {"a1": "alice"}, {"a1": (10, 100)})
        t.fold(1, {"a1": "alice"}, {"a1": (15, 300)})
        self.assertEqual(t.of("alice"), (15, 300))
        self.assertEqual(state["hysteria_traffic"], {"alice": [15, 300]})

    def test_a_restarted_core_counts_from_zero_and_the_totals_go_on(self):
        state = {}
        t = Totals(state)
        t.fold(1, {"a1": "alice"}, {"a1": (15, 300)})
        t2 = Totals(state)  # the double restarted with its persisted state: a new core
        t2.fold(1, {"a1": "alice"}, {"a1": (5, 50)})
        self.assertEqual(t2.of("alice"), (20, 350))

    def test_unknown_auths_and_users_without_traffic(self):
        t = Totals({})
        t.fold(1, {"a1": "alice"}, {"stranger": (1, 1)})
        self.assertEqual(t.of("alice"), (0, 0))
        self.assertEqual(t.of("bob"), (0, 0))


if __name__ == "__main__":
    unittest.main()
