//! The clue parser's logic: the session wired, each message decoded and
//! its refusal decided as it arrives, then acted on (see `parser.rs`).

use super::*;

impl Logic for ClueParser {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            state,
            is_start_line,
            is_blocks,
            is_end_board,
            colours_due,
            total_lines,
            line,
            stored,
            first,
            blocks,
            second_pending,
            second,
            clue_write_q,
            clue_length_q,
            clue_address_q,
            clue_ink_q,
            inks_q,
            line_write_q,
            budget_q,
            first_only_q,
            no_room,
            refused_if_taken,
            line_after,
            line_is_last,
            refusal_outcome,
            refusal_detail
        );
        // The session: bytes in; boards begun, refused, queried.
        self.session.clock.next = self.clock.val();
        self.session.reset.next = self.reset.val();
        self.session.rx_byte.next = self.rx_byte.val();
        self.session.rx_byte_valid.next = self.rx_byte_valid.val();
        self.session.rx_framing_error.next = self.rx_framing_error.val();
        self.rows.next = bit_cast::<7, 12>(self.session.rows.val());
        self.columns.next = bit_cast::<7, 12>(self.session.columns.val());
        self.abort.next = self.session.abort.val();
        self.board_loaded.next = self.session.board_loaded.val();
        self.refuse.next = self.session.refuse.val();
        self.refuse_outcome.next = self.session.refuse_outcome.val();
        self.refuse_detail.next = self.session.refuse_detail.val();
        self.query.next = self.session.query.val();
        self.switch.next = self.session.switch.val();
        self.switch_image.next = self.session.switch_image.val();
        self.loading.next = self.session.loading.val();
        // The body: clues, line table entries and the search's orders out.
        self.clue_write.next = self.clue_write_q.q.val();
        self.clue_address.next = self.clue_address_q.q.val();
        self.clue_length.next = self.clue_length_q.q.val();
        // (Each colour register is read under the constant `colour`, so a
        // build without colour has none of them.)
        self.inks.next = 0.into();
        self.clue_ink.next = 0.into();
        if self.colour.val() {
            self.inks.next = self.inks_q.q.val();
            self.clue_ink.next = self.clue_ink_q.q.val();
        }
        self.line_write.next = self.line_write_q.q.val();
        self.line_number.next = bit_cast::<7, 8>(self.line.q.val());
        self.line_first.next = self.first.q.val();
        self.line_blocks.next = self.blocks.q.val();
        self.budget.next = self.budget_q.q.val();
        self.first_only.next = self.first_only_q.q.val();
        self.clue_write_q.d.next = false;
        self.line_write_q.d.next = false;
        self.second_pending.d.next = false;
        self.room.next = !self.no_room.q.val();
        self.room_after.next =
            (self.blocks.q.val() != self.last_block.val()) & (self.stored.q.val() != self.last_address.val());
        self.session.body.listening.next = true;
        self.session.body.finish.next = false;
        self.session.body.refuse.next = false;
        self.session.body.outcome.next = self.malformed.val();
        self.session.body.detail.next = self.unexpected.val();

        self.message_code.next = self.session.body.message.val().get_bits::<3>(13);
        self.message_index.next = self.session.body.message.val().get_bits::<12>(1);

        // The second START_BOARD: line 0's START_LINE comes next.
        if self.session.body.begin.val() {
            self.total_lines.d.next =
                bit_cast::<8, 12>(self.session.body.rows.val()) + bit_cast::<8, 12>(self.message_index.val());
            self.state.d.next = LineState::ExpectFirstLine;
            self.colours_due.d.next = self.colour.val();
        }

        // Decode a complete message into registered flags, and decide its
        // refusal (UNEXPECTED unless a case wants the message).
        self.start_line_now.next = self.message_code.val() == self.code_start_line.val();
        self.blocks_now.next = self.message_code.val() == self.code_blocks.val();
        self.end_board_now.next = self.message_code.val() == self.code_end_board.val();
        self.colours_now.next = self.message_code.val() == self.code_colours.val();
        self.bad_ink_now.next = (self.message_index.val().get_bits::<3>(0) == 0)
            | (self.message_index.val().get_bits::<3>(0) > self.inks_q.q.val());
        // START_LINE 0 always means the next line.
        self.next_line_now.next = (bit_cast::<12, 8>(self.line_after.q.val()) == self.message_index.val())
            | (self.message_index.val() == 0);
        self.last_line_now.next = self.line_is_last.q.val();
        // (A cycle behind `line`, which changes only with `take`, a message
        // before the next decision.)
        self.line_after.d.next = self.line.q.val() + 1;
        self.line_is_last.d.next = self.line.q.val() + 1 == self.total_lines.q.val();
        if self.session.body.message_valid.val() {
            self.is_start_line.d.next = self.start_line_now.val();
            self.is_blocks.d.next = self.blocks_now.val();
            self.is_end_board.d.next = self.end_board_now.val();
            self.refused_if_taken.d.next = true;
            self.refusal_outcome.d.next = self.malformed.val();
            self.refusal_detail.d.next = self.unexpected.val();
            if self.colour.val() & self.colours_due.q.val() {
                if self.colours_now.val() {
                    if self.message_index.val() == 0 {
                        self.refusal_detail.d.next = self.bad_ink.val();
                    } else if self.message_index.val() > self.max_inks.val() {
                        self.refusal_outcome.d.next = self.over_capacity.val();
                        self.refusal_detail.d.next = self.bad_ink.val();
                    } else {
                        self.refused_if_taken.d.next = false;
                    }
                }
                // A board without COLOURS is a v2 board.
                if self.start_line_now.val() {
                    self.refusal_outcome.d.next = self.over_capacity.val();
                    self.refusal_detail.d.next = self.no_engine.val();
                }
                if self.end_board_now.val() {
                    self.refusal_detail.d.next = self.wrong_line.val();
                }
            } else {
                match self.state.q.val() {
                    LineState::ExpectFirstLine => {
                        if self.start_line_now.val() {
                            if self.message_index.val() == 0 {
                                self.refused_if_taken.d.next = false;
                            } else {
                                self.refusal_detail.d.next = self.wrong_line.val();
                            }
                        }
                        if self.end_board_now.val() {
                            self.refusal_detail.d.next = self.wrong_line.val();
                        }
                    }
                    LineState::InLine => {
                        if self.start_line_now.val() {
                            if self.next_line_now.val() & !self.last_line_now.val() {
                                self.refused_if_taken.d.next = false;
                            } else {
                                self.refusal_detail.d.next = self.wrong_line.val();
                            }
                        }
                        if self.blocks_now.val() {
                            if self.colour.val() & self.bad_ink_now.val() {
                                self.refusal_detail.d.next = self.bad_ink.val();
                            } else if self.room.val() {
                                self.refused_if_taken.d.next = false;
                            } else {
                                self.refusal_outcome.d.next = self.over_capacity.val();
                                self.refusal_detail.d.next = self.too_many_blocks.val();
                            }
                        }
                        if self.end_board_now.val() {
                            if self.last_line_now.val() {
                                self.refused_if_taken.d.next = false;
                            } else {
                                self.refusal_detail.d.next = self.wrong_line.val();
                            }
                        }
                    }
                }
            }
        }

        // Act on it: a message not refused is the one its state wants.
        self.accepted.next = self.session.body.take.val() & !self.refused_if_taken.q.val();
        if self.session.body.take.val() {
            self.session.body.refuse.next = self.refused_if_taken.q.val();
            self.session.body.outcome.next = self.refusal_outcome.q.val();
            self.session.body.detail.next = self.refusal_detail.q.val();
        }
        if self.accepted.val() & self.is_start_line.q.val() {
            // (Line 0 when the state expects the first line.)
            self.line.d.next = self.line.q.val() + 1;
            self.first.d.next = bit_cast::<CLUE_STORE_BITS, 12>(self.stored.q.val());
            self.blocks.d.next = 0.into();
            self.no_room.d.next = self.stored.q.val() == self.store_size.val();
            self.line_write_q.d.next = true;
            if self.state.q.val() == LineState::ExpectFirstLine {
                self.state.d.next = LineState::InLine;
                self.line.d.next = 0.into();
                self.first.d.next = 0.into();
                self.stored.d.next = 0.into();
                self.no_room.d.next = false;
            }
        }
        if self.colour.val() & self.accepted.val() & self.colours_due.q.val() {
            // (COLOURS, the only message taken while it is due.)
            self.inks_q.d.next = self.message_index.val().get_bits::<3>(0);
            self.colours_due.d.next = false;
        }
        if self.accepted.val() & self.is_blocks.q.val() {
            self.clue_write_q.d.next = true;
            self.clue_ink_q.d.next = 0.into();
            if self.colour.val() {
                self.clue_ink_q.d.next = self.message_index.val().get_bits::<3>(0);
            }
            self.clue_address_q.d.next = bit_cast::<CLUE_STORE_BITS, 12>(self.stored.q.val());
            self.clue_length_q.d.next =
                bit_cast::<7, 6>(self.session.body.message.val().get_bits::<6>(7)) + 1;
            self.stored.d.next = self.stored.q.val() + 1;
            self.blocks.d.next = self.blocks.q.val() + 1;
            self.no_room.d.next = !self.room_after.val();
            self.line_write_q.d.next = true;
            // (v3 has one block a message.)
            self.second_pending.d.next = self.session.body.message.val().get_bit(0) & !self.colour.val();
            self.second.d.next = bit_cast::<7, 6>(self.session.body.message.val().get_bits::<6>(1)) + 1;
        }
        if self.accepted.val() & self.is_end_board.q.val() {
            self.session.body.finish.next = true;
            self.budget_q.d.next = self.message_index.val();
            self.first_only_q.d.next = self.session.body.message.val().get_bit(0);
        }
        // The second block of a BLOCKS message, a cycle after the first.
        if self.second_pending.q.val() {
            if self.room.val() {
                self.clue_write_q.d.next = true;
                self.clue_address_q.d.next = bit_cast::<CLUE_STORE_BITS, 12>(self.stored.q.val());
                self.clue_length_q.d.next = self.second.q.val();
                self.clue_ink_q.d.next = 0.into();
                self.stored.d.next = self.stored.q.val() + 1;
                self.blocks.d.next = self.blocks.q.val() + 1;
                self.no_room.d.next = !self.room_after.val();
                self.line_write_q.d.next = true;
            } else {
                self.session.body.refuse.next = true;
                self.session.body.outcome.next = self.over_capacity.val();
                self.session.body.detail.next = self.too_many_blocks.val();
            }
        }
    }
}
