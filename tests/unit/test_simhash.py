from parawire.crawler.dedup import fingerprint, first_original, hamming, simhash, simhash_bands
from parawire.records import FingerprintMatch

TEXT = ("Gullhaven Robotics opened its new factory in Brennmouth on Monday, where some 400 "
        "workers will build delivery robots for warehouses across the region. The company "
        "said the first machines would leave the plant before the end of the spring, and "
        "the development agency confirmed the terms of its loan would be published.")


def test_near_copies_are_close_and_other_texts_far():
    copy = TEXT.replace("Monday", "Monday afternoon") + " (Coastline Wire)"
    other = "A leatherback turtle was freed on Farrow Sands and returned to the sea on Sunday."
    assert hamming(simhash(TEXT), simhash(copy)) <= 12
    assert hamming(simhash(TEXT), simhash(TEXT.upper())) == 0
    assert hamming(simhash(TEXT), simhash(other)) > 12


def test_bands_cover_the_hash():
    value = simhash(TEXT)
    bands = simhash_bands(value)
    assert len(bands) == 8 and all(0 <= b < 1 << 8 for b in bands)
    assert sum(b << (8 * i) for i, b in enumerate(bands)) == value


def test_the_earliest_near_copy_names_the_original():
    new = fingerprint(TEXT)
    assert new.bands == tuple(simhash_bands(new.value))
    too_far = FingerprintMatch(1, new.value ^ 0xFF, None)  # 8 bits off
    copy = FingerprintMatch(2, new.value ^ 0b101, 1)  # a copy of article 1, 2 bits off
    original = FingerprintMatch(3, new.value, None)
    assert first_original(new, [too_far, copy, original]) == 1
    assert first_original(new, [too_far, original]) == 3
    assert first_original(new, [too_far]) is None
