//! The depth-first placement search: pieces placed group by group (strong pieces first), each
//! node pruned by the degraded-piece tests (`crate::relax`) and cut by the board's symmetries
//! (`crate::symmetry`). Counting hands the short-range tail to the transfer over files
//! (`crate::transfer`); enumerating tests the pawn, lance and stone tail with the file-by-file
//! leaf (`crate::leaf`). [`crate::solve`] splits it into tasks and runs them in parallel.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use crate::board::Mask;
use crate::combinatorics::{multinomial, next_permutation, symmetric_shares};
use crate::leaf::{LeafCounter, LeafScratch, Wanted};
use crate::relax::{PawnPatterns, pawns_and_stones_fit, vertical_blocks_fit};
use crate::symmetry::{self, BOTH, ID, MIRROR, TURN};
use crate::transfer::{TailGroup, TransferCounter, TransferScratch, is_short_range};
use crate::{Color, Facing, Geometry, Kind, Mode, Options, PlacedPiece, Placement, Problem};

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

/// What a task (or a run of tasks) found.
#[derive(Debug, Default)]
pub(crate) struct Acc {
    /// Placements counted (or handed out).
    pub(crate) count: u128,
    /// Counting: of those, placements equal to their own mirror image.
    pub(crate) mirror_fixed: u128,
    /// Enumeration only: mirror classes whose representative was visited.
    pub(crate) mirror_classes: u128,
    /// Search nodes visited.
    pub(crate) nodes: u64,
}

impl Acc {
    /// Both tallies together.
    pub(crate) fn add(self, o: Acc) -> Acc {
        Acc {
            count: self.count + o.count,
            mirror_fixed: self.mirror_fixed + o.mirror_fixed,
            mirror_classes: self.mirror_classes + o.mirror_classes,
            nodes: self.nodes + o.nodes,
        }
    }
}

/// The depth-first search of one problem: its groups of pieces in search order, the pruning
/// tests, the symmetry it cuts by and the leaf counters; shared by the worker threads.
pub(crate) struct Search<'a> {
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

/// One parallel task: a node where the split of the search stopped and the placement so far.
pub(crate) struct Task {
    node: Node,
    stack: Stack,
}

/// A worker's buffers: the leaf's and the transfer's remembered file tables.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
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
    /// The search of `problem` with `opts`, handing enumerated placements to `on_solution`.
    pub(crate) fn new(
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
                match symmetry::canonical(self.geo, self.sym, &stack[stack.len() - n..], child.stab)
                {
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
        let weight = symmetry::weight(self.sym, node.stab);
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
            let image = |p: &PlacedPiece| symmetry::image(self.geo, 1 << v, *p);
            // One image of each mirror pair represents it: when the mirror cuts the search and
            // does not fix the prefix, the image reached without it; otherwise (the pair lies
            // among this prefix's own completions) the lexicographically larger.
            let representative = if self.sym & MIRROR != 0 && node.stab & MIRROR == 0 {
                v & 1 == 0
            } else {
                let y = Placement::new(self.geo, stack.iter().map(image).collect());
                let m = y
                    .pieces()
                    .iter()
                    .map(|p| symmetry::image(self.geo, MIRROR, *p))
                    .collect();
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

    /// Searches one task to the end (or until the search stops) with a worker's `scratch`.
    pub(crate) fn run(&self, task: Task, scratch: &mut Scratch) -> Acc {
        let Task { node, mut stack } = task;
        let mut acc = Acc::default();
        self.dfs(node, (&mut stack, scratch), &mut acc);
        acc
    }

    /// True once the search stopped early: the enumeration limit or the time limit.
    pub(crate) fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// True when the time limit stopped the search.
    pub(crate) fn interrupted(&self) -> bool {
        self.interrupted.load(Ordering::Relaxed)
    }

    /// Splits the tree into at least `target` independent tasks (or all terminal nodes).
    pub(crate) fn tasks(&self, target: usize) -> Vec<Task> {
        let root = self.root();
        let mut stack = Vec::new();
        let mut scratch = Scratch::default();
        if self.opts.prune && !self.feasible(&root, &mut scratch) {
            return Vec::new();
        }
        let mut tasks = vec![(root, stack.clone())];
        loop {
            if tasks.len() >= target || tasks.iter().all(|(n, _)| self.is_terminal(n)) {
                return tasks
                    .into_iter()
                    .map(|(node, stack)| Task { node, stack })
                    .collect();
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
