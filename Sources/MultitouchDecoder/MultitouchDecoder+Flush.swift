import InputCore

// Flush phase, once per SYN_REPORT: for each touched slot in slot order, publish the end of the
// committed contact, then contacts that lived only within the frame, then the begin or motion of
// the slot's current contact; then commit.
extension MultitouchDecoder {
    mutating func flush(time: Timestamp, into out: inout EventBuffer<ContactEvent>) {
        guard !touchedSlots.isEmpty else { return }
        let touched = touchedSlots
        touched.forEach { s in
            if !flushMotion(s, time: time, into: &out) { flushSlot(s, time: time, into: &out) }
        }
        touchedSlots.removeAll()
    }

    /// The common case, inline: the slot's contact goes on, published and touching, nothing ended
    /// or came and went within the frame, no hover: a motion, if an axis changed. Returns false,
    /// having changed nothing, for any other case (`flushSlot`).
    @inline(__always)
    private mutating func flushMotion(_ s: Int, time: Timestamp, into out: inout EventBuffer<ContactEvent>) -> Bool {
        guard !declared.hasMTDistance, slots[s].committedEndSample == nil, slots[s].transients.isEmpty,
            case .contact(let c) = slots[s].current, !c.pending, !c.suppressed,
            case .contact(let old) = slots[s].committed, old.generation == c.generation,
            slots[s].sample.toolType != ToolType.palm
        else { return false }
        if slots[s].axesDirty { out.appendAssumingUnique(event(.moved, slot: s, contact: c, time: time, sample: slots[s].sample)) }
        // `commit()` but for what is already so: the committed contact is the current one (a
        // contact changes only in `flushSlot`, which commits it) and no end sample was kept.
        assert(slots[s].committed == slots[s].current)
        slots[s].axesDirty = false
        slots[s].touched = false
        return true
    }

    /// Every case: ends, contacts within the frame, begins, palms, hover, adoption. Out of line:
    /// inlined, its stack frame and spills were paid by every motion.
    @inline(never)
    private mutating func flushSlot(_ s: Int, time: Timestamp, into out: inout EventBuffer<ContactEvent>) {
        if let endSample = slots[s].committedEndSample, case .contact(let c) = slots[s].committed {
            if c.published {
                if c.touching {
                    // A lift that only a resync reveals happened at an unknown time and place: void.
                    // A palm that lifts in the frame it became one is a palm (libinput handles the
                    // palm before the lift): cancelled, not a completed stroke.
                    // A contact adopted from motion that a press shows never touched: void.
                    let kind: ContactEvent.Kind =
                        origin == .resync ? .cancelled(.resync)
                        : endSample.toolType == ToolType.palm ? .cancelled(.palm)
                        : slots[s].committedNeverTouched ? .cancelled(.notTouching) : .ended
                    out.appendAssumingUnique(event(kind, slot: s, contact: c, time: time, sample: endSample))
                }
                if c.hovered {
                    out.appendAssumingUnique(event(.hover(.proximityOut), slot: s, contact: c, time: time, sample: endSample))
                }
            } else if slots[s].committedNeverTouched {
                // Adopted from motion, never published, and never a touch: nothing to say.
            } else if c.pending && origin == .device && endSample.positionKnown {
                // Its position was completed in the frame that ended it: it lived, unpublished,
                // until this frame, which publishes it whole.
                publishWithinFrame(c, sample: endSample, slot: s, time: time, into: &out)
            } else if c.pending {
                noteUnpositioned(c, slot: s)
            }
        }
        if !slots[s].transients.isEmpty {
            for t in slots[s].transients {
                if origin != .device {
                    // A state dump has no contacts that come and go within it; nothing was seen.
                    note(.unseenContactEnded(slot: s))
                    continue
                }
                publishWithinFrame(t.contact, sample: t.sample, slot: s, time: time, into: &out)
            }
            slots[s].transients.removeAll(keepingCapacity: true)
        }
        let sample = slots[s].sample
        let isPalm = sample.toolType == ToolType.palm
        switch slots[s].current {
        case .contact(var c):
            let continues: Bool
            if case .contact(let old) = slots[s].committed, old.generation == c.generation {
                continues = true
            } else {
                continues = false
            }
            if !continues || c.pending {
                begin(&c, slot: s, sample: sample, time: time, into: &out)
            } else if !c.suppressed {
                if isPalm {
                    if c.touching { out.appendAssumingUnique(event(.cancelled(.palm), slot: s, contact: c, time: time, sample: sample)) }
                    if c.hovered {
                        out.appendAssumingUnique(event(.hover(.proximityOut), slot: s, contact: c, time: time, sample: sample))
                    }
                    c.suppressed = true
                } else if declared.hasMTDistance {
                    hoverTransition(&c, slot: s, sample: sample, time: time, into: &out)
                } else if slots[s].axesDirty {
                    out.appendAssumingUnique(event(.moved, slot: s, contact: c, time: time, sample: sample))
                }
            }
            slots[s].current = .contact(c)
        case .unknown:
            if slots[s].axesDirty {
                // Motion in a slot whose contact began before we were watching: adopt it (on a
                // single-touch device, unsettled until its key first changes).
                var c = newContact(trackingID: nil, flags: mode == .singleTouch ? [.adopted, .unsettled] : .adopted)
                begin(&c, slot: s, sample: sample, time: time, into: &out)
                slots[s].current = .contact(c)
            }
        case .empty:
            break
        }
        slots[s].commit()
    }

    /// A contact that began (or was first published) and ended within the frame: `began` and
    /// `ended` with `sample` (on a device that hovers and a hovering sample, `proximityIn` and
    /// `proximityOut`), unless it is a palm or its position is unknown (counted).
    private mutating func publishWithinFrame(
        _ c: Contact, sample: ContactSample, slot s: Int, time: Timestamp, into out: inout EventBuffer<ContactEvent>
    ) {
        if sample.toolType == ToolType.palm {
            note(.palmSuppressed(slot: s))
        } else if !sample.positionKnown {
            noteUnpositioned(c, slot: s)
        } else if declared.hasMTDistance && MultitouchDecoder.hovers(sample) {
            out.appendAssumingUnique(event(.hover(.proximityIn), slot: s, contact: c, time: time, sample: sample))
            out.appendAssumingUnique(event(.hover(.proximityOut), slot: s, contact: c, time: time, sample: sample))
        } else {
            out.appendAssumingUnique(beganEvent(slot: s, contact: c, time: time, sample: sample))
            out.appendAssumingUnique(event(.ended, slot: s, contact: c, time: time, sample: sample))
        }
    }

    /// `c` ended before its position was known: nobody's fault. Down before the stream began, or
    /// begun in it where its slot's last contact was: the kernel sends an axis only when it
    /// changes, so a new tracking ID comes without the position its slot already had, which a
    /// stream that starts later never saw (a live device's slots are seeded with theirs).
    private mutating func noteUnpositioned(_ c: Contact, slot s: Int) {
        note(.unseenContactEnded(slot: s))
    }

    /// Publishes `c`'s `began`, unless it is a palm (suppressed for good) or its position is not
    /// known yet (pending: a later frame that completes the position begins it).
    @inline(__always)
    private mutating func begin(
        _ c: inout Contact, slot s: Int, sample: ContactSample, time: Timestamp, into out: inout EventBuffer<ContactEvent>
    ) {
        if sample.toolType == ToolType.palm {
            if !c.suppressed { note(.palmSuppressed(slot: s)) }
            c.suppressed = true
            c.pending = false
        } else if !sample.positionKnown {
            c.pending = true
        } else if declared.hasMTDistance && MultitouchDecoder.hovers(sample) {
            c.pending = false
            c.touching = false
            c.hovered = true
            out.appendAssumingUnique(event(.hover(.proximityIn), slot: s, contact: c, time: time, sample: sample))
        } else {
            c.pending = false
            out.appendAssumingUnique(beganEvent(slot: s, contact: c, time: time, sample: sample))
        }
    }

    /// A contact hovers while it reports a distance above 0 (`ABS_MT_DISTANCE`, kernel
    /// `multi-touch-protocol.rst`); an unknown distance is 0, as the kernel starts it.
    @inline(__always)
    static func hovers(_ sample: ContactSample) -> Bool {
        sample.known.contains(.distance) && sample.distance > 0
    }

    /// A published contact of a device that hovers: its stroke begins when the distance reaches 0
    /// and ends when it rises again; motion in between is `moved`, outside it `hover(motion)`.
    /// Hover is published only for contacts that hover: `proximityIn` when it first does.
    private mutating func hoverTransition(
        _ c: inout Contact, slot s: Int, sample: ContactSample, time: Timestamp, into out: inout EventBuffer<ContactEvent>
    ) {
        let touching = !MultitouchDecoder.hovers(sample)
        switch (c.touching, touching) {
        case (false, true):
            c.touching = true
            out.appendAssumingUnique(beganEvent(slot: s, contact: c, time: time, sample: sample))
        case (true, false):
            c.touching = false
            out.appendAssumingUnique(event(.ended, slot: s, contact: c, time: time, sample: sample))
            if !c.hovered {
                c.hovered = true
                out.appendAssumingUnique(event(.hover(.proximityIn), slot: s, contact: c, time: time, sample: sample))
            }
        case (true, true):
            if slots[s].axesDirty { out.appendAssumingUnique(event(.moved, slot: s, contact: c, time: time, sample: sample)) }
        case (false, false):
            if slots[s].axesDirty { out.appendAssumingUnique(event(.hover(.motion), slot: s, contact: c, time: time, sample: sample)) }
        }
    }
}
