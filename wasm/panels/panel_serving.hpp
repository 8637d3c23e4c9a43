// Inside the serving panel only: the moment its playback shows, shared by panel_serving.cpp (the
// panel: transport, timeline, latency, stats lines) and panel_serving_pool.cpp (the block pool).
#pragma once
#include "app/app.hpp"
#include "serving/simulate.hpp"

namespace kvui::serving {

// The moment on screen: the frame the playback stands on and the step it was taken at.
struct Moment {
    const kv::PoolFrame* frame = nullptr;
    const kv::SimStep* step = nullptr;
    double now_s = 0;
};

// The block pool as a grid at the moment shown, with its figures, legend and a tooltip per cell.
void block_pool(const kvapp::Panel& panel, const Moment& now);

}  // namespace kvui::serving
