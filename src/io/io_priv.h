/* io_priv.h - what the I/O engines share: the request generator and the
 * built-in engines' ops. */
#ifndef SHORTSTROKE_IO_PRIV_H
#define SHORTSTROKE_IO_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "shortstroke/io.h"

/* One request as the generator makes it. */
struct io_req {
	uint64_t lba;
	uint32_t blocks;
	bool write;
};

/* Makes the requests of a validated job, in order, reproducibly. */
struct io_gen {
	const struct io_job *job;
	struct io_rng rng;
	uint32_t lblock;
	uint64_t start, end;   /* the span, blocks */
	uint64_t next_seq;     /* where the sequential stream goes on */
	uint64_t issued;       /* bytes handed out */
	uint64_t nreq;	       /* requests handed out (the butterfly's step) */
	uint64_t limit;	       /* byte limit, 0 none */
	uint32_t align_blocks; /* 0: per request, its own size */
	uint32_t size_blocks[IO_SIZES_MAX];
	uint64_t cum_weight[IO_SIZES_MAX];
	unsigned nsizes;
	uint32_t max_blocks;
};

void io_gen_init(struct io_gen *g, const struct io_job *job, const struct io_geom *geom);
/* The next request; false when the byte limit is reached. */
bool io_gen_next(struct io_gen *g, struct io_req *r);
/* The largest request, bytes. */
uint32_t io_job_max_bytes(const struct io_job *job, uint32_t lblock);

uint64_t io_mono_ns(void);

/* The simulated engines (simeng.c, simarray.c): a drive holds at most
 * io_sim_queue_depth commands; its own scheduler picks among them
 * (sim_drive_schedule). */
struct sim_drive;
struct drive;
unsigned io_sim_queue_depth(const struct sim_drive *sd);
/* A simulated drive through the sim transport and the drive layer, as any
 * drive, and its capacity and block sizes (READ CAPACITY). On failure *d may
 * be set: drive_free it. */
int io_sim_drive_open(struct sim_drive *sd, struct drive **d, struct io_geom *g,
		      struct ss_error *err);

extern const struct io_engine_ops io_engine_uring;
extern const struct io_engine_ops io_engine_sim;
extern const struct io_engine_ops io_engine_sim_array;

#endif
