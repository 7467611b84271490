//! koma-core: the rules of shogi.
