"""Matching reconstructed jets to generator-level jets by angular distance, event by event.

Within each event the reco jets, leading first, take the closest still-free gen jet inside
DR_MAX (a greedy match). The response pt_reco / pt_gen of matched pairs is collected per
|eta| region, and the matching efficiency per gen-jet pt bin is counted.
"""
import numpy as np
import numba
from numba import njit

PI = np.pi
DR_MAX = 0.4
ETA_REGIONS = np.array([0.0, 1.3, 2.5, 4.7])
PT_BINS = np.array([20.0, 30.0, 50.0, 100.0, 1000.0])
UNMATCHED = -1


@numba.njit
def delta_phi(phi1, phi2):
    return (phi1 - phi2 + PI) % (2 * PI) - PI


@numba.njit
def delta_r(eta1, phi1, eta2, phi2):
    return np.sqrt((eta1 - eta2) ** 2 + delta_phi(phi1, phi2) ** 2)


@njit
def match_event(reco_pt, reco_eta, reco_phi, gen_eta, gen_phi):
    n_reco, n_gen = len(reco_pt), len(gen_eta)
    match = np.full(n_reco, UNMATCHED, dtype=np.int64)
    taken = np.zeros(n_gen, dtype=np.bool_)
    for i in np.argsort(-reco_pt):
        best, best_dr = UNMATCHED, np.inf
        for j in range(n_gen):
            if taken[j]:
                continue
            dr = delta_r(reco_eta[i], reco_phi[i], gen_eta[j], gen_phi[j])
            if dr < best_dr:
                best, best_dr = j, dr
        if best != UNMATCHED and best_dr < DR_MAX:
            match[i] = best
            taken[best] = True
    return match


@njit(cache=True)
def match_jets(reco_counts, reco, gen_counts, gen):
    assert len(reco_counts) == len(gen_counts)
    n_events = len(reco_counts)
    n_regions = len(ETA_REGIONS) - 1
    response_sum = np.zeros(n_regions)
    response_sq = np.zeros(n_regions)
    response_n = np.zeros(n_regions, dtype=np.int64)
    gen_total = np.zeros(len(PT_BINS) - 1, dtype=np.int64)
    gen_matched = np.zeros_like(gen_total)
    all_matches = np.empty(reco.shape[0], dtype=np.int64)
    r0 = g0 = 0
    for ev in range(n_events):
        r1, g1 = r0 + reco_counts[ev], g0 + gen_counts[ev]
        ev_reco, ev_gen = reco[r0:r1], gen[g0:g1]
        match = match_event(ev_reco[:, 0], ev_reco[:, 1], ev_reco[:, 2], ev_gen[:, 1], ev_gen[:, 2])
        all_matches[r0:r1] = np.where(match >= 0, match + g0, UNMATCHED)
        for j in range(ev_gen.shape[0]):
            k = np.searchsorted(PT_BINS, ev_gen[j, 0], side='right') - 1
            if 0 <= k < len(gen_total):
                gen_total[k] += 1
                if np.any(match == j):
                    gen_matched[k] += 1
        for i in range(ev_reco.shape[0]):
            j = match[i]
            if j == UNMATCHED:
                continue
            region = np.searchsorted(ETA_REGIONS, abs(ev_gen[j, 1])) - 1
            if region < 0 or region >= n_regions:
                continue
            ratio = ev_reco[i, 0] / ev_gen[j, 0]
            response_sum[region] += ratio
            response_sq[region] += ratio * ratio
            response_n[region] += 1
        r0, g0 = r1, g1
    mean = response_sum / np.maximum(response_n, 1)
    width = np.sqrt(np.maximum(response_sq / np.maximum(response_n, 1) - mean ** 2, 0.0))
    efficiency = gen_matched / np.maximum(gen_total, 1)
    return all_matches, mean, width, efficiency, response_n
