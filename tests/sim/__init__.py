"""Tests of spyhouse.sim: the balance lab."""
