//! Depth-first placement search with degraded-piece pruning, symmetry and parallel tasks;
//! counting hands the short-range tail to the transfer over files (`crate::transfer`),
//! enumerating tests the pawn, lance and stone tail with the file-by-file leaf (`crate::leaf`).

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::board::Mask;
use crate::leaf::{LeafCounter, LeafScratch, Wanted};
use crate::relax::{PawnPatterns, pawns_and_stones_fit, vertical_blocks_fit};
use crate::transfer::{TailGroup, TransferCounter, TransferScratch, is_short_range};
use crate::{Color, Facing, Geometry, Kind, PieceSet, PlaceError, PlacedPiece, Placement};

/// A placement question: which pieces, on which board, facing one or both ways.
#[derive(Debug, Clone)]
pub struct Problem {
    set: PieceSet,
    geometry: Geometry,
    both_ways: bool,
}

impl Problem {
    /// Checks that the set fits on the board and that no piece is fixed White in
    /// one-directional mode.
    pub fn new(set: PieceSet, geometry: Geometry, both_ways: bool) -> Result<Problem, PlaceError> {
        if set.is_empty() {
            return Err(PlaceError::Empty);
        }
        let squares = geometry.len() as u32;
        if set.len() > squares {
            return Err(PlaceError::TooMany {
                pieces: set.len(),
                squares,
            });
        }
        if !both_ways
            && let Some(k) = Kind::ALL
                .into_iter()
                .find(|&k| set.count(k, Facing::White) > 0)
        {
            return Err(PlaceError::WhiteInOneWay {
                piece: k.sfen().to_ascii_lowercase(),
            });
        }
        Ok(Problem {
            set,
            geometry,
            both_ways,
        })
    }

    /// The piece set.
    pub fn set(&self) -> &PieceSet {
        &self.set
    }

    /// The board.
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// True for two-directional placement.
    pub fn both_ways(&self) -> bool {
        self.both_ways
    }
}

/// What the search does with solutions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Count all placements: the long-range pieces are searched, the short-range rest (king,
    /// gold-likes, silver, knight, lance, pawn, stone; free facing) is counted file by file
    /// without enumerating it.
    Count,
    /// Visit placements one by one and hand each to the callback, stopping after `limit`
    /// (`--first` is a limit of 1).
    Enumerate {
        /// Stop after this many solutions were handed out.
        limit: Option<u64>,
    },
}

/// What one finished parallel task found: the unit a long count records to resume from.
///
/// Tasks are numbered by their place in the split of the search, which depends only on the
/// problem, `symmetry`, `prune` and [`Options::split`], never on the thread count or the order
/// in which tasks finish.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TaskCount {
    /// The task's number, from 0.
    pub task: usize,
    /// Placements the task found (counted, or handed out when enumerating).
    pub count: u128,
    /// Counting only: of those, placements equal to their own mirror image.
    pub mirror_fixed: u128,
    /// Search nodes the task visited.
    pub nodes: u64,
}

/// Progress of a running search, reported after each finished task.
#[derive(Debug, Clone, Copy)]
pub struct Progress {
    /// Tasks finished, those resumed from included.
    pub done: usize,
    /// Tasks in all.
    pub total: usize,
    /// Placements counted so far.
    pub found: u128,
    /// The task that just finished.
    pub task: TaskCount,
}

/// How to search.
pub struct Options<'a> {
    /// Count or enumerate.
    pub mode: Mode,
    /// Worker threads; 0 means one per core.
    pub threads: usize,
    /// Use the left-right mirror (and, two-directionally with free colours, the 180° turn with
    /// colours swapped) to search only one placement of each symmetry class.
    pub symmetry: bool,
    /// Use the pawn-and-stone test to prune.
    pub prune: bool,
    /// When enumerating, hand out only one placement of each mirror pair.
    pub identify_mirror: bool,
    /// Stop (with `complete == false`) after this long.
    pub time_limit: Option<Duration>,
    /// Stop (with `complete == false`) soon after this flag is set, from any thread: a caller's
    /// cancel button. Finished tasks have been reported to `progress`, so a count can resume.
    pub cancel: Option<&'a AtomicBool>,
    /// Called after each finished task.
    pub progress: Option<&'a (dyn Fn(Progress) + Sync)>,
    /// Split the search into at least this many parallel tasks; 0 means 256 per thread. A
    /// resumed count must use the split of the run it resumes.
    pub split: usize,
    /// Counting only (ignored when enumerating): tasks finished by an earlier run of the same
    /// problem, options and split. They are not searched again; their counts are added in.
    pub resume: &'a [TaskCount],
}

impl Options<'_> {
    /// The worker threads `solve` uses: `threads`, or one per core when it is 0.
    pub fn thread_count(&self) -> usize {
        if self.threads == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            self.threads
        }
    }

    /// The task split `solve` asks for: `split`, or 256 per thread when it is 0.
    pub fn split_target(&self) -> usize {
        if self.split == 0 {
            256 * self.thread_count()
        } else {
            self.split
        }
    }
}

impl Default for Options<'_> {
    fn default() -> Self {
        Options {
            mode: Mode::Count,
            threads: 0,
            symmetry: true,
            prune: true,
            identify_mirror: false,
            time_limit: None,
            cancel: None,
            progress: None,
            split: 0,
            resume: &[],
        }
    }
}

/// What a search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// Placements (mirror images counted separately). When enumerating, those found.
    pub count: u128,
    /// Placements with each mirror pair counted once.
    pub count_mirror_identified: u128,
    /// True when the search ran to the end, so the counts are the full answer.
    pub complete: bool,
    /// Search nodes visited (by the earlier runs too, for resumed tasks).
    pub nodes: u64,
    /// Parallel tasks finished (resumed ones included).
    pub tasks_done: usize,
    /// Parallel tasks in all.
    pub tasks: usize,
    /// Wall-clock time.
    pub elapsed: Duration,
}

/// Symmetry elements as bits: identity, mirror, 180° turn with colours swapped, both.
const ID: u8 = 1;
const MIRROR: u8 = 2;
const TURN: u8 = 4;
const BOTH: u8 = 8;

#[derive(Debug, Clone)]
struct Group {
    kind: Kind,
    count: u8,
    black_req: u8,
    white_req: u8,
    orientable: bool,
    /// Index into [doubles, singles, stones] of the piece this kind relaxes to.
    relaxed: usize,
    /// Index into [`Wanted`] (pawns, lances, stones) when the file-by-file leaf covers this
    /// group: pawns and lances of free facing (Black one-directionally), stones.
    leaf_slot: Option<usize>,
    /// The kinds sharing the group and their numbers: one kind, or the gold-like kinds of free
    /// facing (see [`Kind::moves_like_gold`]).
    members: Vec<(Kind, u8)>,
}

/// The group of gold-like kinds placed together: where it lies on the placement stack and in
/// how many ways its squares are shared out among its kinds.
#[derive(Debug, Clone)]
struct Shared {
    /// Index of the group.
    group: usize,
    start: usize,
    members: Vec<(Kind, u8)>,
    ways: u128,
}

#[derive(Debug, Clone, Copy)]
struct Node {
    occ: Mask,
    att: Mask,
    group: u8,
    left: u8,
    next: u8,
    black_req: u8,
    white_req: u8,
    /// Symmetry elements that fix the placement so far.
    stab: u8,
}

#[derive(Debug, Default)]
struct Acc {
    count: u128,
    mirror_fixed: u128,
    /// Enumeration only: mirror classes whose representative was visited.
    mirror_classes: u128,
    nodes: u64,
}

impl Acc {
    fn add(self, o: Acc) -> Acc {
        Acc {
            count: self.count + o.count,
            mirror_fixed: self.mirror_fixed + o.mirror_fixed,
            mirror_classes: self.mirror_classes + o.mirror_classes,
            nodes: self.nodes + o.nodes,
        }
    }
}

struct Search<'a> {
    geo: &'a Geometry,
    mask: Mask,
    groups: Vec<Group>,
    both: bool,
    /// Symmetry elements used to cut the search.
    sym: u8,
    /// Pieces of the groups after each group, relaxed: [doubles, singles, stones].
    after: Vec<[u32; 3]>,
    /// Nodes at the start of this group or later are leaves.
    leaf_from: usize,
    /// First group of the tail the file-by-file leaf covers (pawns, lances, stones).
    tail_from: usize,
    /// When enumerating: tests exactly that the pawn, lance and stone tail fits.
    leaf: Option<LeafCounter>,
    /// When counting: counts the short-range tail from group `leaf_from` on.
    transfer: Option<TransferCounter>,
    /// Enumeration: the final pawns are placed run by run from precomputed patterns.
    patterns: Option<PawnPatterns>,
    shared: Option<Shared>,
    opts: &'a Options<'a>,
    on_solution: &'a (dyn Fn(&Placement) + Sync),
    stop: AtomicBool,
    interrupted: AtomicBool,
    emitted: AtomicU64,
    deadline: Option<Instant>,
}

type Stack = Vec<PlacedPiece>;

/// A worker's buffers: the leaf's and the transfer's remembered file tables.
#[derive(Debug, Default)]
struct Scratch {
    leaf: LeafScratch,
    transfer: TransferScratch,
}

/// What [`Search::children`] hands on to each child: the placement so far and the worker's
/// leaf buffers.
type Walk<'w> = (&'w mut Stack, &'w mut Scratch);

/// The runs of a node whose only remaining pieces are pawns, for [`Search::place_pawns`].
struct PawnLeaf<'a> {
    patterns: &'a PawnPatterns,
    runs: &'a [(u32, usize)],
    /// Most pawns the runs from each index on hold.
    rest: &'a [u32],
    full: &'a Node,
}

const DOUBLE: usize = 0;
const SINGLE: usize = 1;
const STONE: usize = 2;

impl<'a> Search<'a> {
    fn new(
        problem: &'a Problem,
        opts: &'a Options<'a>,
        on_solution: &'a (dyn Fn(&Placement) + Sync),
    ) -> Search<'a> {
        let both = problem.both_ways;
        let groups = groups(problem);
        let shared = groups
            .iter()
            .position(|g| g.members.len() > 1)
            .map(|i| Shared {
                group: i,
                start: groups[..i].iter().map(|g| g.count as usize).sum(),
                members: groups[i].members.clone(),
                ways: multinomial(groups[i].members.iter().map(|m| m.1 as usize)),
            });

        let n = groups.len();
        let mut after = vec![[0; 3]; n + 1];
        for i in (0..n).rev() {
            after[i] = after[i + 1];
            if let Some(g) = groups.get(i + 1) {
                after[i][g.relaxed] += g.count as u32;
            }
        }
        let mut tail_from = n;
        while tail_from > 0 && groups[tail_from - 1].leaf_slot.is_some() {
            tail_from -= 1;
        }
        let counting = opts.mode == Mode::Count;
        let transfer = counting.then(|| transfer_tail(problem, &groups)).flatten();
        let leaf = (!counting && tail_from < n).then(|| {
            let mut most = [0; 3];
            for g in &groups[tail_from..] {
                most[g.leaf_slot.unwrap_or(0)] += g.count as u32;
            }
            LeafCounter::new(&problem.geometry, most[0], most[1], most[2], both)
        });
        let last_is_free_pawn = groups
            .last()
            .is_some_and(|g| g.kind == Kind::Pawn && g.leaf_slot.is_some());
        let patterns = (!counting && last_is_free_pawn)
            .then(|| PawnPatterns::new(problem.geometry.ranks(), both));
        let mut sym = ID;
        if opts.symmetry {
            sym |= MIRROR;
            if both && groups.iter().all(|g| g.black_req == g.white_req) {
                sym |= TURN | BOTH;
            }
        }
        Search {
            geo: &problem.geometry,
            mask: problem.geometry.all(),
            groups,
            both,
            sym,
            after,
            leaf_from: if let Some((from, _)) = transfer {
                from
            } else if counting {
                n
            } else if patterns.is_some() {
                n - 1
            } else {
                n
            },
            tail_from,
            leaf,
            transfer: transfer.map(|t| t.1),
            patterns,
            shared,
            opts,
            on_solution,
            stop: AtomicBool::new(false),
            interrupted: AtomicBool::new(false),
            emitted: AtomicU64::new(0),
            deadline: opts.time_limit.map(|d| Instant::now() + d),
        }
    }

    fn root(&self) -> Node {
        let g = &self.groups[0];
        Node {
            occ: 0,
            att: 0,
            group: 0,
            left: g.count,
            next: 0,
            black_req: g.black_req,
            white_req: g.white_req,
            // The mirror is always tracked, to count mirror-symmetric placements.
            stab: self.sym | MIRROR,
        }
    }

    fn weight(&self, stab: u8) -> u128 {
        (self.sym.count_ones() / (stab & self.sym).count_ones()) as u128
    }

    /// Pieces still to place, relaxed: [doubles, singles, stones].
    fn remaining(&self, node: &Node) -> [u32; 3] {
        let gi = node.group as usize;
        let mut r = self.after[gi];
        if let Some(g) = self.groups.get(gi) {
            r[g.relaxed] += node.left as u32;
        }
        r
    }

    /// Pawns, lances and stones still to place, for a node in the tail.
    fn wanted(&self, node: &Node) -> Wanted {
        let gi = node.group as usize;
        let mut wanted = [0; 3];
        for (i, g) in self.groups.iter().enumerate().skip(gi) {
            let n = if i == gi { node.left } else { g.count };
            wanted[g.leaf_slot.unwrap_or(0)] += n as usize;
        }
        wanted
    }

    /// The pruning test: the remaining pieces relaxed to pawns and stones fit; when
    /// enumerating, the tail (pawns, lances, stones) is tested exactly by the leaf counter.
    fn feasible(&self, node: &Node, scratch: &mut Scratch) -> bool {
        let [d, p, s] = self.remaining(node);
        let free = !(node.occ | node.att) & self.mask;
        if !pawns_and_stones_fit(self.geo, node.occ, free, d + p, s, self.both)
            || (self.both && !vertical_blocks_fit(self.geo, free, d, p, s))
        {
            return false;
        }
        match &self.leaf {
            Some(leaf) if node.group as usize >= self.tail_from => {
                let wanted = self.wanted(node);
                leaf.count(node.occ, free, wanted, &mut scratch.leaf) > 0
            }
            _ => true,
        }
    }

    fn image(&self, element: u8, p: PlacedPiece) -> PlacedPiece {
        let mut sq = p.square as usize;
        let mut color = p.color;
        if element & (MIRROR | BOTH) != 0 {
            sq = self.geo.mirror(sq);
        }
        if element & (TURN | BOTH) != 0 {
            sq = self.geo.rotate(sq);
            if !p.kind.is_direction_free() {
                color = color.flip();
            }
        }
        PlacedPiece {
            square: sq as u8,
            color,
            ..p
        }
    }

    /// At the end of a group: is it the least of its images under the stabiliser, and which
    /// elements still fix the placement? `None` when another image comes first.
    fn canonical(&self, group: &[PlacedPiece], stab: u8) -> Option<u8> {
        let key = |p: &PlacedPiece| (p.square as u16) * 2 + (p.color == Color::White) as u16;
        let mut new_stab = ID;
        let mut own = [0u16; 81];
        let mut img = [0u16; 81];
        let n = group.len();
        for (o, p) in own.iter_mut().zip(group) {
            *o = key(p);
        }
        for element in [MIRROR, TURN, BOTH] {
            if stab & element == 0 {
                continue;
            }
            for (o, p) in img.iter_mut().zip(group) {
                *o = key(&self.image(element, *p));
            }
            img[..n].sort_unstable();
            match img[..n].cmp(&own[..n]) {
                std::cmp::Ordering::Less if self.sym & element != 0 => return None,
                std::cmp::Ordering::Equal => new_stab |= element,
                _ => {}
            }
        }
        Some(new_stab)
    }

    /// Calls `f` on every child of `node` that survives the symmetry and pruning tests.
    fn children(&self, node: &Node, walk: Walk<'_>, f: &mut impl FnMut(Node, Walk<'_>)) {
        let (stack, scratch) = walk;
        let g = &self.groups[node.group as usize];
        let free = !(node.occ | node.att) & self.mask;
        let mut cand = free & !((1u128 << node.next) - 1);
        if cand.count_ones() < node.left as u32 {
            return;
        }
        let colors: &[Color] = if g.orientable {
            &[Color::Black, Color::White]
        } else {
            &[Color::Black]
        };
        while cand != 0 {
            let s = cand.trailing_zeros() as usize;
            cand &= cand - 1;
            for &color in colors {
                let (black_req, white_req) = match color {
                    Color::Black if g.orientable => {
                        if node.white_req >= node.left {
                            continue;
                        }
                        (node.black_req.saturating_sub(1), node.white_req)
                    }
                    Color::White => {
                        if node.black_req >= node.left {
                            continue;
                        }
                        (node.black_req, node.white_req.saturating_sub(1))
                    }
                    Color::Black => (0, 0),
                };
                let a = self.geo.attacks(g.kind, color, s);
                if a & node.occ != 0 {
                    continue;
                }
                let mut child = Node {
                    occ: node.occ | 1u128 << s,
                    att: node.att | a,
                    left: node.left - 1,
                    next: s as u8 + 1,
                    black_req,
                    white_req,
                    ..*node
                };
                stack.push(PlacedPiece {
                    square: s as u8,
                    kind: g.kind,
                    color,
                });
                if self.finish_child(&mut child, stack, scratch) {
                    f(child, (stack, scratch));
                }
                stack.pop();
            }
        }
    }

    /// Closes a finished group (symmetry) and applies the pawn-and-stone test.
    fn finish_child(&self, child: &mut Node, stack: &Stack, scratch: &mut Scratch) -> bool {
        if child.left == 0 {
            let gi = child.group as usize;
            if child.stab != ID {
                let n = self.groups[gi].count as usize;
                match self.canonical(&stack[stack.len() - n..], child.stab) {
                    Some(stab) => child.stab = stab,
                    None => return false,
                }
            }
            child.group += 1;
            if let Some(g) = self.groups.get(gi + 1) {
                child.left = g.count;
                child.next = 0;
                child.black_req = g.black_req;
                child.white_req = g.white_req;
            }
        }
        !self.opts.prune || self.feasible(child, scratch)
    }

    fn is_terminal(&self, node: &Node) -> bool {
        let gi = node.group as usize;
        gi == self.groups.len() || (gi >= self.leaf_from && node.left == self.groups[gi].count)
    }

    fn dfs(&self, node: Node, walk: Walk<'_>, acc: &mut Acc) {
        acc.nodes += 1;
        let terminal = self.is_terminal(&node);
        // Transfer leaves are costly: the clock is read at each of them.
        if acc.nodes & 0x3fff == 0 || (terminal && self.transfer.is_some()) {
            if self.deadline.is_some_and(|d| Instant::now() > d) {
                self.interrupt();
            }
            if self.opts.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
                self.interrupt();
            }
        }
        if self.stop.load(Ordering::Relaxed) {
            return;
        }
        if terminal {
            self.leaf(&node, walk, acc);
            return;
        }
        self.children(&node, walk, &mut |child, walk| self.dfs(child, walk, acc));
    }

    fn interrupt(&self) {
        self.interrupted.store(true, Ordering::Relaxed);
        self.stop.store(true, Ordering::Relaxed);
    }

    fn leaf(&self, node: &Node, (stack, scratch): Walk<'_>, acc: &mut Acc) {
        let weight = self.weight(node.stab);
        let mirror = node.stab & MIRROR != 0;
        if node.group as usize != self.groups.len() {
            let free = !(node.occ | node.att) & self.mask;
            if let Some(transfer) = &self.transfer {
                let (all, fixed) = transfer.count(node.occ, free, mirror, &mut scratch.transfer);
                let (ways, symmetric) = self.shares(stack, mirror);
                acc.count += weight * all * ways;
                acc.mirror_fixed += weight * fixed * symmetric;
            } else if let Some(patterns) = &self.patterns {
                let runs = patterns.runs(self.geo, node.occ, free);
                let mut rest = vec![0; runs.len() + 1];
                for i in (0..runs.len()).rev() {
                    rest[i] = rest[i + 1] + patterns.most(runs[i].1);
                }
                let full = Node {
                    group: self.groups.len() as u8,
                    ..*node
                };
                let pawns = PawnLeaf {
                    patterns,
                    runs: &runs,
                    rest: &rest,
                    full: &full,
                };
                self.place_pawns(&pawns, 0, node.left as u32, (stack, scratch), acc);
            }
            return;
        }
        if self.opts.mode == Mode::Count {
            let (ways, symmetric) = self.shares(stack, mirror);
            acc.count += weight * ways;
            if mirror {
                acc.mirror_fixed += weight * symmetric;
            }
            return;
        }
        let Some(shared) = &self.shared else {
            self.emit(node, stack, acc);
            return;
        };
        // Every distinct sharing of the group's squares among its kinds, in lexicographic order.
        let mut kinds: Vec<Kind> = shared
            .members
            .iter()
            .flat_map(|&(k, n)| std::iter::repeat_n(k, n as usize))
            .collect();
        loop {
            for (p, &k) in stack[shared.start..].iter_mut().zip(&kinds) {
                p.kind = k;
            }
            self.emit(node, stack, acc);
            if self.stop.load(Ordering::Relaxed) || !next_permutation(&mut kinds) {
                return;
            }
        }
    }

    /// (ways to share the gold-like group's squares among its kinds, those ways that are their
    /// own mirror image when `mirror` says the placement is); (1, 1) without such a group.
    fn shares(&self, stack: &Stack, mirror: bool) -> (u128, u128) {
        let Some(shared) = &self.shared else {
            return (1, 1);
        };
        if shared.group >= self.leaf_from {
            // The transfer counts the sharings of a group in its tail.
            return (1, 1);
        }
        if !mirror {
            return (shared.ways, 0);
        }
        let n = shared.members.iter().map(|m| m.1 as usize).sum::<usize>();
        let group = &stack[shared.start..shared.start + n];
        let centre = group
            .iter()
            .filter(|p| self.geo.mirror(p.square as usize) == p.square as usize)
            .count();
        let counts: Vec<usize> = shared.members.iter().map(|m| m.1 as usize).collect();
        (
            shared.ways,
            symmetric_shares(&counts, (n - centre) / 2, centre),
        )
    }

    /// Hands a finished placement (and its symmetric images) to the callback.
    fn emit(&self, node: &Node, stack: &Stack, acc: &mut Acc) {
        // Elements as 2-bit vectors (bit 0 mirror, bit 1 turn) compose by xor, and the leaf's
        // stabiliser `node.stab` says which images coincide (the group is abelian).
        for v in 0..4u8 {
            if self.sym & (1 << v) == 0 || (0..v).any(|u| node.stab & (1 << (u ^ v)) != 0) {
                continue;
            }
            let image = |p: &PlacedPiece| self.image(1 << v, *p);
            // One image of each mirror pair represents it: when the mirror cuts the search and
            // does not fix the prefix, the image reached without it; otherwise (the pair lies
            // among this prefix's own completions) the lexicographically larger.
            let representative = if self.sym & MIRROR != 0 && node.stab & MIRROR == 0 {
                v & 1 == 0
            } else {
                let y = Placement::new(self.geo, stack.iter().map(image).collect());
                let m = y.pieces().iter().map(|p| self.image(MIRROR, *p)).collect();
                Placement::new(self.geo, m).pieces() >= y.pieces()
            };
            if self.opts.identify_mirror && !representative {
                acc.count += 1;
                continue;
            }
            let Mode::Enumerate { limit } = self.opts.mode else {
                return;
            };
            let k = self.emitted.fetch_add(1, Ordering::Relaxed);
            if limit.is_some_and(|l| k >= l) {
                self.stop.store(true, Ordering::Relaxed);
                return;
            }
            acc.count += 1;
            acc.mirror_classes += representative as u128;
            (self.on_solution)(&Placement::new(self.geo, stack.iter().map(image).collect()));
            if limit.is_some_and(|l| k + 1 >= l) {
                self.stop.store(true, Ordering::Relaxed);
            }
        }
    }

    /// Enumerates the final pawns: patterns for runs `i..` holding `k` pawns.
    fn place_pawns(&self, leaf: &PawnLeaf<'_>, i: usize, k: u32, walk: Walk<'_>, acc: &mut Acc) {
        let (stack, scratch) = walk;
        if self.stop.load(Ordering::Relaxed) {
            return;
        }
        if k == 0 {
            self.leaf(leaf.full, (stack, scratch), acc);
            return;
        }
        if leaf.rest[i] < k {
            return;
        }
        let (base, index) = leaf.runs[i];
        for &(black, white) in leaf.patterns.patterns(index) {
            let c = (black | white).count_ones();
            if c > k {
                continue;
            }
            let n = stack.len();
            for (mut mask, color) in [(black, Color::Black), (white, Color::White)] {
                while mask != 0 {
                    stack.push(PlacedPiece {
                        square: (base + mask.trailing_zeros()) as u8,
                        kind: Kind::Pawn,
                        color,
                    });
                    mask &= mask - 1;
                }
            }
            self.place_pawns(leaf, i + 1, k - c, (stack, scratch), acc);
            stack.truncate(n);
        }
    }

    /// Splits the tree into at least `target` independent tasks (or all terminal nodes).
    fn tasks(&self, target: usize) -> Vec<(Node, Stack)> {
        let root = self.root();
        let mut stack = Vec::new();
        let mut scratch = Scratch::default();
        if self.opts.prune && !self.feasible(&root, &mut scratch) {
            return Vec::new();
        }
        let mut tasks = vec![(root, stack.clone())];
        loop {
            if tasks.len() >= target || tasks.iter().all(|(n, _)| self.is_terminal(n)) {
                return tasks;
            }
            let mut next = Vec::new();
            for (node, st) in tasks {
                if self.is_terminal(&node) {
                    next.push((node, st));
                    continue;
                }
                stack.clone_from(&st);
                self.children(
                    &node,
                    (&mut stack, &mut scratch),
                    &mut |child, (stack, _)| next.push((child, stack.clone())),
                );
            }
            tasks = next;
        }
    }
}

/// The groups of identical pieces in search order; the gold-like kinds of free facing share
/// one group.
fn groups(problem: &Problem) -> Vec<Group> {
    let both = problem.both_ways;
    let groups: Vec<Group> = Kind::ALL
        .into_iter()
        .filter(|&k| problem.set.count_kind(k) > 0)
        .map(|kind| {
            let set = &problem.set;
            let orientable = both && !kind.is_direction_free();
            let fixed = set.count(kind, Facing::Black) + set.count(kind, Facing::White);
            Group {
                kind,
                count: set.count_kind(kind) as u8,
                black_req: if orientable {
                    set.count(kind, Facing::Black) as u8
                } else {
                    0
                },
                white_req: if orientable {
                    set.count(kind, Facing::White) as u8
                } else {
                    0
                },
                orientable,
                relaxed: if kind.attacks_both_vertical() {
                    DOUBLE
                } else if kind.degrades_to_pawn() {
                    SINGLE
                } else {
                    STONE
                },
                leaf_slot: match kind {
                    Kind::Pawn if !orientable || fixed == 0 => Some(0),
                    Kind::Lance if !orientable || fixed == 0 => Some(1),
                    Kind::Stone => Some(2),
                    _ => None,
                },
                members: vec![(kind, set.count_kind(kind) as u8)],
            }
        })
        .collect();
    // Gold-like kinds attack alike: place them as one group and share the squares out at
    // the end, instead of searching every split of the squares among the kinds.
    let (gold_like, mut groups): (Vec<Group>, Vec<Group>) = groups
        .into_iter()
        .partition(|g| g.kind.moves_like_gold() && g.black_req == 0 && g.white_req == 0);
    if let Some(first) = gold_like.first() {
        groups.push(Group {
            count: gold_like.iter().map(|g| g.count).sum(),
            members: gold_like.iter().flat_map(|g| g.members.clone()).collect(),
            ..first.clone()
        });
    }
    groups.sort_by_key(|g| g.kind.search_rank(both));
    groups
}

/// The short-range tail a [`TransferCounter`] counts: the first group from which on every group
/// is short-range (not rook, bishop, dragon, horse) with no fixed colours, and the counter;
/// `None` without such a tail.
fn transfer_tail(problem: &Problem, groups: &[Group]) -> Option<(usize, TransferCounter)> {
    let short = |g: &Group| is_short_range(g.kind) && g.black_req == 0 && g.white_req == 0;
    let from = groups.len() - groups.iter().rev().take_while(|g| short(g)).count();
    let tail: Vec<TailGroup> = groups[from..]
        .iter()
        .map(|g| TailGroup {
            kind: g.kind,
            count: g.count as u32,
            orientable: g.orientable,
            members: g.members.iter().map(|m| m.1 as u32).collect(),
        })
        .collect();
    if tail.is_empty() {
        return None;
    }
    TransferCounter::new(&problem.geometry, &tail).map(|t| (from, t))
}

/// Number of ways to share `n1 + n2 + ...` squares among kinds of `n1, n2, ...` pieces.
pub(crate) fn multinomial(counts: impl Iterator<Item = usize>) -> u128 {
    let mut total = 0;
    counts.fold(1, |ways, n| {
        total += n;
        ways * binomial(total, n)
    })
}

fn binomial(n: usize, k: usize) -> u128 {
    (0..k).fold(1u128, |b, i| b * (n - i) as u128 / (i as u128 + 1))
}

/// Sharings of a mirror-symmetric group (`pairs` pairs of mirror squares, `centre` squares on
/// the centre file) among kinds of `counts` pieces that are their own mirror image: both
/// squares of a pair get the same kind.
pub(crate) fn symmetric_shares(counts: &[usize], pairs: usize, centre: usize) -> u128 {
    let Some((&n, rest)) = counts.split_first() else {
        return (pairs == 0 && centre == 0) as u128;
    };
    (0..=(n / 2).min(pairs))
        .filter(|&a| n - 2 * a <= centre)
        .map(|a| {
            let b = n - 2 * a;
            binomial(pairs, a) * binomial(centre, b) * symmetric_shares(rest, pairs - a, centre - b)
        })
        .sum()
}

/// Steps `v` to its next permutation in lexicographic order (repeated values give distinct
/// permutations once); false after the last one.
fn next_permutation<T: Ord>(v: &mut [T]) -> bool {
    let Some(i) = (1..v.len()).rev().find(|&i| v[i - 1] < v[i]) else {
        return false;
    };
    let j = (i..v.len()).rev().find(|&j| v[i - 1] < v[j]).unwrap_or(i);
    v.swap(i - 1, j);
    v[i..].reverse();
    true
}

/// Solves `problem`: counts or enumerates its placements, handing each enumerated placement to
/// `on_solution` as soon as it is found (from several threads, hence `Sync`).
///
/// Counts are exact when `complete` is true; the search stops early on a limit or time limit.
pub fn solve(
    problem: &Problem,
    opts: &Options<'_>,
    on_solution: &(dyn Fn(&Placement) + Sync),
) -> Outcome {
    let start = Instant::now();
    let search = Search::new(problem, opts, on_solution);
    let threads = opts.thread_count();
    let split = opts.split_target();
    let tasks = search.tasks(split);
    let total = tasks.len();
    // Resumed tasks (each once): skipped, their counts added in.
    let mut skip = vec![false; total];
    let mut before = Acc::default();
    let resume = if opts.mode == Mode::Count {
        opts.resume
    } else {
        &[]
    };
    for t in resume.iter().filter(|t| t.task < total) {
        if !std::mem::replace(&mut skip[t.task], true) {
            before = before.add(Acc {
                count: t.count,
                mirror_fixed: t.mirror_fixed,
                mirror_classes: 0,
                nodes: t.nodes,
            });
        }
    }
    let done = AtomicUsize::new(skip.iter().filter(|&&s| s).count());
    let found = Mutex::new(before.count);
    let run = |scratch: &mut Scratch, (task, (node, mut stack)): (usize, (Node, Stack))| {
        let mut acc = Acc::default();
        search.dfs(node, (&mut stack, scratch), &mut acc);
        if search.stop.load(Ordering::Relaxed) {
            return acc;
        }
        let d = done.fetch_add(1, Ordering::Relaxed) + 1;
        if let Some(progress) = opts.progress {
            let mut f = found.lock().unwrap_or_else(|e| e.into_inner());
            *f += acc.count;
            progress(Progress {
                done: d,
                total,
                found: *f,
                task: TaskCount {
                    task,
                    count: acc.count,
                    mirror_fixed: acc.mirror_fixed,
                    nodes: acc.nodes,
                },
            });
        }
        acc
    };
    let todo: Vec<_> = tasks
        .into_iter()
        .enumerate()
        .filter(|(i, _)| !skip[*i])
        .collect();
    let acc = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(|| {
            todo.into_par_iter()
                .map_init(Scratch::default, run)
                .reduce(Acc::default, Acc::add)
        }),
        Err(_) => {
            let mut scratch = Scratch::default();
            let run = |task| run(&mut scratch, task);
            todo.into_iter().map(run).fold(Acc::default(), Acc::add)
        }
    }
    .add(before);
    let complete = !search.stop.load(Ordering::Relaxed);
    Outcome {
        count: acc.count,
        count_mirror_identified: match opts.mode {
            Mode::Count => (acc.count + acc.mirror_fixed) / 2,
            Mode::Enumerate { .. } => acc.mirror_classes,
        },
        complete: complete && !search.interrupted.load(Ordering::Relaxed),
        nodes: acc.nodes,
        tasks_done: done.load(Ordering::Relaxed),
        tasks: total,
        elapsed: start.elapsed(),
    }
}
