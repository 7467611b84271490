// Perft with cshogi's C++ engine (Apery-derived), for a side-by-side run against koma:
// scripts/bench-cshogi-cpp builds this against the cshogi sources from PyPI.
// Usage: cshogi_perft bulk|materialized DEPTH [SFEN]  ->  prints "<leaves> <seconds>".
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "generateMoves.hpp"
#include "init.hpp"
#include "position.hpp"

static unsigned long long bulk(Position& pos, int depth) {
    MoveList<LegalAll> ml(pos);
    if (depth == 1) return ml.size();
    unsigned long long n = 0;
    StateInfo st;
    for (; !ml.end(); ++ml) {
        pos.doMove(ml.move(), st);
        n += bulk(pos, depth - 1);
        pos.undoMove(ml.move());
    }
    return n;
}

static unsigned long long materialized(Position& pos, int depth) {
    if (depth == 0) return 1;
    unsigned long long n = 0;
    StateInfo st;
    for (MoveList<LegalAll> ml(pos); !ml.end(); ++ml) {
        pos.doMove(ml.move(), st);
        n += materialized(pos, depth - 1);
        pos.undoMove(ml.move());
    }
    return n;
}

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s bulk|materialized DEPTH [SFEN]\n", argv[0]);
        return 2;
    }
    initTable();
    Position::initZobrist();
    const std::string mode = argv[1];
    const int depth = std::atoi(argv[2]);
    const std::string sfen =
        argc > 3 ? argv[3] : "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    Position pos(sfen);
    const auto t0 = std::chrono::steady_clock::now();
    const unsigned long long n = mode == "bulk" ? bulk(pos, depth) : materialized(pos, depth);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%llu %.4f\n", n, s);
    return 0;
}
