// The simulation's KV block pool (internal to serving/): blocks in a doubly linked free queue, as
// vLLM's FreeKVCacheBlockQueue keeps them, with per-cell counts for the drawn grid.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace kv::sim {

// Blocks in a doubly linked free queue, as vLLM's FreeKVCacheBlockQueue: allocation takes from
// the front, freed blocks go to the back, and a cached block that a request hits is taken out of
// the middle. A block remembers which block of the shared prefix it holds until it is evicted, and
// a block freed by a preempted request remembers that request, which finds it again on its return
// (V1 keeps the hashes of a preempted request's blocks, so its recomputation hits its own cache).
// Per cell of the drawn grid the pool keeps running counts, so a frame costs one pass over the
// cells rather than over the blocks.
class BlockPool {
public:
    BlockPool(int32_t blocks, int32_t blocks_per_cell)
        : prev_(static_cast<size_t>(blocks) + 1),
          next_(static_cast<size_t>(blocks) + 1),
          refs_(static_cast<size_t>(blocks), 0),
          prefix_slot_(static_cast<size_t>(blocks), -1),
          own_(static_cast<size_t>(blocks), -1),
          sentinel_(blocks),
          per_cell_(blocks_per_cell) {
        const auto cells = static_cast<size_t>((blocks + blocks_per_cell - 1) / blocks_per_cell);
        cells_.resize(cells);
        prev_[static_cast<size_t>(sentinel_)] = next_[static_cast<size_t>(sentinel_)] = sentinel_;
        for (int32_t b = 0; b < blocks; ++b) link_back(b);
    }

    // What one cell of the grid holds.
    struct Cell {
        int32_t used = 0;         // blocks some request holds
        int32_t cached = 0;       // free blocks that still hold a block of the shared prefix
        int32_t prefix_held = 0;  // held blocks of the shared prefix
        int32_t owner = -1;       // the request that last took a block here
    };

    int32_t size() const { return sentinel_; }
    int32_t free() const { return free_; }
    int32_t cached_free() const { return cached_free_; }
    int32_t refs(int32_t b) const { return refs_[static_cast<size_t>(b)]; }
    const std::vector<Cell>& cells() const { return cells_; }
    int32_t cell_blocks(size_t cell) const { return std::min(per_cell_, sentinel_ - static_cast<int32_t>(cell) * per_cell_); }

    int32_t allocate(int32_t request, std::vector<int32_t>& prefix_blocks) {
        const int32_t b = next_[static_cast<size_t>(sentinel_)];
        unlink(b);
        if (int32_t& slot = prefix_slot_[static_cast<size_t>(b)]; slot >= 0) {  // evict
            prefix_blocks[static_cast<size_t>(slot)] = -1;
            slot = -1;
        }
        own_[static_cast<size_t>(b)] = -1;
        refs_[static_cast<size_t>(b)] = 1;
        Cell& c = cell(b);
        ++c.used;
        c.owner = request;
        return b;
    }
    // Another request holds a cached prefix block; a free one leaves the queue.
    void hold(int32_t b) {
        if (refs_[static_cast<size_t>(b)]++ == 0) {
            unlink(b);
            ++cell(b).used;
            ++cell(b).prefix_held;
        }
    }
    void release(int32_t b) {
        if (--refs_[static_cast<size_t>(b)] > 0) return;
        --cell(b).used;
        if (prefix_slot_[static_cast<size_t>(b)] >= 0) --cell(b).prefix_held;
        link_back(b);
    }
    // A block a preempted request is about to free stays findable by it until evicted.
    void keep_for(int32_t b, int32_t request) { own_[static_cast<size_t>(b)] = request; }
    bool kept_for(int32_t b, int32_t request) const { return own_[static_cast<size_t>(b)] == request; }
    // The request a free block was kept for takes it back out of the queue.
    void reclaim(int32_t b, int32_t request) {
        own_[static_cast<size_t>(b)] = -1;
        unlink(b);
        refs_[static_cast<size_t>(b)] = 1;
        Cell& c = cell(b);
        ++c.used;
        c.owner = request;
    }
    // A held block becomes a block of the shared prefix.
    void mark_prefix(int32_t b, int32_t slot) {
        prefix_slot_[static_cast<size_t>(b)] = slot;
        ++cell(b).prefix_held;
    }

private:
    Cell& cell(int32_t b) { return cells_[static_cast<size_t>(b / per_cell_)]; }
    void unlink(int32_t b) {
        const auto i = static_cast<size_t>(b);
        next_[static_cast<size_t>(prev_[i])] = next_[i];
        prev_[static_cast<size_t>(next_[i])] = prev_[i];
        --free_;
        if (prefix_slot_[i] >= 0) --cached_free_, --cell(b).cached;
    }
    void link_back(int32_t b) {
        const auto i = static_cast<size_t>(b), s = static_cast<size_t>(sentinel_);
        prev_[i] = prev_[s];
        next_[i] = sentinel_;
        next_[static_cast<size_t>(prev_[s])] = b;
        prev_[s] = b;
        ++free_;
        if (prefix_slot_[i] >= 0) ++cached_free_, ++cell(b).cached;
    }

    std::vector<int32_t> prev_, next_, refs_, prefix_slot_, own_;
    std::vector<Cell> cells_;
    int32_t sentinel_;
    int32_t per_cell_;
    int32_t free_ = 0, cached_free_ = 0;
};

}  // namespace kv::sim
