from parawire.crawler.dedup import simhash

TEXT = ("Gullhaven Robotics opened its new factory in Brennmouth on Monday, where some 400 "
        "workers will build delivery robots for warehouses across the region. The company "
        "said the first machines would leave the plant before the end of the spring, and "
        "the development agency confirmed the terms of its loan would be published.")


def hamming(a: int, b: int) -> int:
    return (a ^ b).bit_count()


def test_near_copies_are_close_and_other_texts_far():
    copy = TEXT.replace("Monday", "Monday afternoon") + " (Coastline Wire)"
    other = "A leatherback turtle was freed on Farrow Sands and returned to the sea on Sunday."
    assert hamming(simhash(TEXT), simhash(copy)) <= 12
    assert hamming(simhash(TEXT), simhash(TEXT.upper())) == 0
    assert hamming(simhash(TEXT), simhash(other)) > 12
