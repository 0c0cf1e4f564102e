// Runs the Verilated Verilog of the whole nonogram core (module `top`, as
// RustHDL emits it) cycle by cycle, exactly as `nonogram_hdl::driver::CoreDriver`
// runs the RustHDL simulation of the same core:
//
// * one reset cycle first (reset high, rx idle high), not counted;
// * every cycle: inputs are set, the clock goes low and the model settles,
//   the clock rises and the model settles, then the outputs are read;
// * host bytes go onto `rx` as 8N1 frames (start bit, 8 data bits LSB first,
//   stop bit), CPB clocks per bit, each frame starting the cycle after the
//   previous one ends;
// * `tx` is decoded like the driver: a low level while idle starts a byte,
//   bits are sampled at t >= CPB/2 with (t - CPB/2) % CPB == 0 clocks after
//   the start, bit 9 is the stop bit (low: a framing error).
//
// Usage: nonogram-verilated [--random-init SEED] CPB CYCLES [[@CYCLE:]FILE]...
//
// --random-init: registers without an initial value (the block RAMs) power up
// random (Verilator's randReset 2, seeded) instead of zero.
// Each FILE (`-` = stdin) holds host bytes; they are queued for `rx` once
// CYCLE cycles have run (0 when no @CYCLE: is given), in the order given.
// Prints one event a line, then a summary:
//
//   phase CYCLE VALUE        the `phase` output changed (and its value after the reset cycle, at 0)
//   byte CYCLE HEX           a byte arrived from `tx` at the end of this cycle
//   framing_error CYCLE      a byte from `tx` had a low stop bit
//   boot CYCLE IMAGE         the core raised SB_WARMBOOT's BOOT for flash image IMAGE
//   cycles N                 cycles run (the reset cycle not counted)
//   seconds S                wall time of the N cycles
//   received HEX...          every byte received, in order

// Serve mode, for the simulated board's Verilator back end (nonogram_sim):
//
//   nonogram-verilated --serve CPB SEND_PERIOD
//
// runs the core as `CoreDriver` does, under commands on stdin (binary,
// little-endian), one reply each on stdout:
//
//   'b' N:u32 BYTES[N]   queue host bytes for rx            (no reply)
//   'r' N:u64            run N cycles                        -> reply
//   'u' N:u64            run up to N cycles, until QUIET     -> reply
//   reply: RAN:u64 QUIET:u8 BOOT:u8 FRAMING:u32 COUNT:u32 BYTES[COUNT]
//
// SEND_PERIOD is the host's clocks per bit as a decimal (CPB × (1 + rate
// error)), and the rx levels are computed from it in double precision as
// the driver does. QUIET is `CoreDriver::quiet()`: nothing queued, and
// CALM_CYCLES cycles with no frame on either pin and the core idle or
// receiving. RAN is the cycles run, BYTES what arrived from tx meanwhile
// and FRAMING how many bytes came with a low stop bit (dropped).
// 'u' keeps a fast simulation from running the line idle past the core's
// idle timeout while the host is still writing. BOOT is the flash image the
// core asked SB_WARMBOOT for (0xFF: none); such a core runs no further
// cycles, as the FPGA is being reconfigured. EOF ends it.

// Built with -DBOARD_TOP, it runs the Alchitry Cu top level instead of the
// core: the pins are usb_rx and usb_tx, "phase" reports the eight LEDs, and
// no reset is applied (reset_n stays high, the button unpressed): the top
// level's own power-on reset must bring the core up.

#include "Vtop.h"
#include "verilated.h"

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#ifdef BOARD_TOP
#define PIN_RX usb_rx
#define PIN_TX usb_tx
#define PIN_PHASE leds
#define RESET_CYCLE(core, on) ((core).reset_n = 1)
// The top level's SB_WARMBOOT reports itself (see verilated.rs).
#define BOOT_OF(core) NO_BOOT
#else
#define PIN_RX rx
#define PIN_TX tx
#define PIN_PHASE phase
#define RESET_CYCLE(core, on) ((core).reset = (on))
#define BOOT_OF(core) ((core).boot ? unsigned((core).boot_image) : NO_BOOT)
#endif

// BOOT_OF when the core has not asked SB_WARMBOOT for another image.
constexpr unsigned NO_BOOT = 0xFF;

namespace {

struct Chunk {
    uint64_t at;
    std::vector<uint8_t> bytes;
};

[[noreturn]] void usage(const char* why) {
    std::fprintf(stderr, "nonogram-verilated: %s\nusage: nonogram-verilated [--random-init SEED] CPB CYCLES [[@CYCLE:]FILE]...\n", why);
    std::exit(2);
}

uint64_t parse_u64(const char* text, const char* what) {
    char* end = nullptr;
    errno = 0;
    unsigned long long value = std::strtoull(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0') usage(what);
    return value;
}

std::vector<uint8_t> read_all(const std::string& path) {
    if (path == "-") {
        std::cin >> std::noskipws;
        return std::vector<uint8_t>(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    }
    std::ifstream file(path, std::ios::binary);
    if (!file) {
        std::fprintf(stderr, "nonogram-verilated: cannot read %s\n", path.c_str());
        std::exit(2);
    }
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

// The reset cycle (CoreDriver::new): reset high (on the core), rx idle.
void reset_cycle(Vtop& core) {
    core.PIN_RX = 1;
    RESET_CYCLE(core, 1);
    core.clock = 0;
    core.eval();
    core.clock = 1;
    core.eval();
    RESET_CYCLE(core, 0);
}

// The core's UART pins, driven as CoreDriver drives them.
struct Pins {
    uint64_t cpb;        // the core's clocks per bit: tx is sampled mid-bit
    double send_period;  // the host's clocks per bit, maybe off: rx levels
    std::deque<uint8_t> to_core;
    bool sending = false;
    uint64_t frame_bits = 0;  // the 10 levels of the frame on rx, bit i = level i
    uint64_t frame_t = 0;
    bool listening = false;
    uint64_t listen_t = 0;
    uint16_t listen_bits = 0;

    // Host -> core: set rx for this cycle, then the clock edge.
    void drive(Vtop& core) {
        if (!sending && !to_core.empty()) {
            frame_bits = (uint64_t{1} << 9) | (uint64_t{to_core.front()} << 1);  // start 0, data, stop 1
            to_core.pop_front();
            frame_t = 0;
            sending = true;
        }
        bool level = true;
        if (sending) {
            // In double precision, as the driver (exact for a whole CPB).
            uint64_t bit = uint64_t(double(frame_t) / send_period);
            ++frame_t;
            level = (frame_bits >> (bit < 9 ? bit : 9)) & 1;
            if (double(frame_t) >= 10.0 * send_period) sending = false;
        }
        core.PIN_RX = level;
        core.clock = 0;
        core.eval();
        core.clock = 1;
        core.eval();
    }

    enum Heard { NOTHING, BYTE, FRAMING_ERROR };

    // Core -> host: sample tx mid-bit; bit 9 is the stop bit.
    Heard listen(Vtop& core, uint8_t& byte) {
        bool tx = core.PIN_TX;
        if (!listening) {
            if (!tx) {
                listening = true;
                listen_t = 0;
                listen_bits = 0;
            }
            return NOTHING;
        }
        uint64_t t = ++listen_t;
        if (t < cpb / 2 || (t - cpb / 2) % cpb != 0) return NOTHING;
        uint64_t bit = (t - cpb / 2) / cpb;
        if (bit >= 1 && bit <= 8) {
            listen_bits |= uint16_t(tx) << (bit - 1);
            return NOTHING;
        }
        if (bit != 9) return NOTHING;
        listening = false;
        byte = uint8_t(listen_bits);
        return tx ? BYTE : FRAMING_ERROR;
    }
};

// driver.rs: CALM_CYCLES, and the phases in which the core only waits.
constexpr uint64_t CALM_CYCLES = 64;
constexpr unsigned PHASE_IDLE = 0, PHASE_RECEIVING = 1;

bool read_exact(void* into, size_t n) {
    return std::fread(into, 1, n, stdin) == n;
}

int serve(int argc, char** argv) {
    if (argc != 4) usage("--serve takes CPB SEND_PERIOD");
    const uint64_t cpb = parse_u64(argv[2], "CPB must be a number");
    char* end = nullptr;
    const double send_period = std::strtod(argv[3], &end);
    if (cpb < 4 || end == argv[3] || *end != '\0' || !(send_period >= 1.0)) usage("bad CPB or SEND_PERIOD");

    VerilatedContext context;
    context.commandArgs(1, argv);
    Vtop core{&context};
    reset_cycle(core);

    Pins pins{cpb, send_period};
    uint64_t calm = 0;
    std::vector<uint8_t> received;
    for (;;) {
        uint8_t command;
        if (!read_exact(&command, 1)) break;
        if (command == 'b') {
            uint32_t n;
            if (!read_exact(&n, 4)) break;
            std::vector<uint8_t> bytes(n);
            if (n && !read_exact(bytes.data(), n)) break;
            pins.to_core.insert(pins.to_core.end(), bytes.begin(), bytes.end());
            continue;
        }
        if (command != 'r' && command != 'u') usage("unknown serve command");
        const bool until_quiet = command == 'u';
        uint64_t cycles;
        if (!read_exact(&cycles, 8)) break;
        uint64_t ran = 0;
        uint32_t framing = 0;
        // A core that raised BOOT is being reconfigured: it runs no further.
        while (ran < cycles && BOOT_OF(core) == NO_BOOT &&
               !(until_quiet && pins.to_core.empty() && calm >= CALM_CYCLES)) {
            ++ran;
            pins.drive(core);
            unsigned phase = core.PIN_PHASE;
            bool busy = pins.sending || pins.listening || (phase != PHASE_IDLE && phase != PHASE_RECEIVING);
            calm = busy ? 0 : calm + 1;
            uint8_t byte;
            switch (pins.listen(core, byte)) {
                case Pins::BYTE: received.push_back(byte); break;
                case Pins::FRAMING_ERROR: ++framing; break;  // dropped, as the driver does
                case Pins::NOTHING: break;
            }
        }
        uint8_t quiet = pins.to_core.empty() && calm >= CALM_CYCLES;
        uint8_t boot = uint8_t(BOOT_OF(core));
        uint32_t count = uint32_t(received.size());
        std::fwrite(&ran, 8, 1, stdout);
        std::fwrite(&quiet, 1, 1, stdout);
        std::fwrite(&boot, 1, 1, stdout);
        std::fwrite(&framing, 4, 1, stdout);
        std::fwrite(&count, 4, 1, stdout);
        if (count) std::fwrite(received.data(), 1, count, stdout);
        std::fflush(stdout);
        received.clear();
    }
    core.final();
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc > 1 && std::strcmp(argv[1], "--serve") == 0) return serve(argc, argv);
    int arg_at = 1;
    bool random_init = false;
    uint64_t seed = 0;
    if (argc > 2 && std::strcmp(argv[1], "--random-init") == 0) {
        random_init = true;
        seed = parse_u64(argv[2], "SEED must be a number");
        arg_at = 3;
    }
    if (argc < arg_at + 2) usage("missing arguments");
    const uint64_t cpb = parse_u64(argv[arg_at], "CPB must be a number");
    const uint64_t cycles = parse_u64(argv[arg_at + 1], "CYCLES must be a number");
    if (cpb < 4) usage("CPB must be at least 4");
    std::vector<Chunk> chunks;
    for (int i = arg_at + 2; i < argc; ++i) {
        std::string arg = argv[i];
        uint64_t at = 0;
        if (!arg.empty() && arg[0] == '@') {
            size_t colon = arg.find(':');
            if (colon == std::string::npos) usage("@CYCLE: needs a colon");
            at = parse_u64(arg.substr(1, colon - 1).c_str(), "bad @CYCLE");
            arg = arg.substr(colon + 1);
        }
        if (!chunks.empty() && at < chunks.back().at) usage("chunks must be in cycle order");
        chunks.push_back(Chunk{at, read_all(arg)});
    }

    VerilatedContext context;
    context.commandArgs(1, argv);  // no +verilator+ options from the command line
    if (random_init) {
        context.randReset(2);
        context.randSeed(int(seed & 0x7fffffff));
    }
    Vtop core{&context};
    reset_cycle(core);

    Pins pins{cpb, double(cpb)};
    size_t next_chunk = 0;
    std::vector<uint8_t> received;
    unsigned last_phase = core.PIN_PHASE;
    unsigned last_boot = NO_BOOT;
    std::printf("phase 0 %u\n", last_phase);

    auto start = std::chrono::steady_clock::now();
    for (uint64_t cycle = 1; cycle <= cycles; ++cycle) {
        // CoreDriver::send between steps: chunks due by now are queued.
        while (next_chunk < chunks.size() && chunks[next_chunk].at <= cycle - 1) {
            pins.to_core.insert(pins.to_core.end(), chunks[next_chunk].bytes.begin(), chunks[next_chunk].bytes.end());
            ++next_chunk;
        }
        pins.drive(core);
        unsigned phase = core.PIN_PHASE;
        if (phase != last_phase) {
            std::printf("phase %llu %u\n", (unsigned long long)cycle, phase);
            last_phase = phase;
        }
        if (BOOT_OF(core) != last_boot) {
            last_boot = BOOT_OF(core);
            std::printf("boot %llu %u\n", (unsigned long long)cycle, last_boot);
        }
        uint8_t byte;
        switch (pins.listen(core, byte)) {
            case Pins::BYTE:
                received.push_back(byte);
                std::printf("byte %llu %02x\n", (unsigned long long)cycle, unsigned(byte));
                break;
            case Pins::FRAMING_ERROR:
                std::printf("framing_error %llu\n", (unsigned long long)cycle);
                break;
            case Pins::NOTHING:
                break;
        }
    }
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    core.final();

    std::printf("cycles %llu\nseconds %.6f\nreceived", (unsigned long long)cycles, seconds);
    for (uint8_t b : received) std::printf(" %02x", b);
    std::printf("\n");
    return 0;
}
